/** A JavaScript module as a data: URL, to import source text (a plugin file) without a server. */
export function moduleDataUrl(source: string): string {
  const bytes = new TextEncoder().encode(source);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:text/javascript;base64,${btoa(bin)}`;
}
