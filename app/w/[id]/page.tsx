import WorkbenchLoader from "@/components/workbench/WorkbenchLoader";

export default async function WorkspacePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WorkbenchLoader id={id} />;
}
