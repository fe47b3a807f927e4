/** The Web Worker that hosts the TypeScript language service for goto_definition. */
import { Rpc, type Port } from "../../sandbox/rpc";
import { TsDefinitions, type SourceFiles } from "./ts-service";

const defs = new TsDefinitions();
const rpc = new Rpc(self as unknown as Port);
rpc.handle("define", ({ files, file, line, symbol }: { files: SourceFiles; file: string; line: number; symbol?: string }) => {
  defs.update(files);
  return defs.define(file, line, symbol);
});
