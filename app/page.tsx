import StartPageLoader from "@/components/start/StartPageLoader";

export default function Home() {
  return <StartPageLoader />;
}
