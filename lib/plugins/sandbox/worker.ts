/** The Web Worker entry of a plugin sandbox: one plugin per worker. */
import { startPluginRuntime } from "./runtime";
import type { Port } from "./rpc";

startPluginRuntime(self as unknown as Port);
