import ReplayLoader from "@/components/share/ReplayLoader";

/** A shared session stored on this server. */
export default async function SharedSessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ReplayLoader id={id} />;
}
