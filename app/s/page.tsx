import ReplayLoader from "@/components/share/ReplayLoader";

/** A shared session carried in the link's fragment (`/s#…`): the server never sees it. */
export default function FragmentSessionPage() {
  return <ReplayLoader />;
}
