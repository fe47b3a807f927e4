/**
 * What crosses the sandbox bridge (all JSON), and the schemas the HOST checks it against.
 *
 * The plugin's code runs in the same worker as the runtime that speaks for it, so it can
 * patch that runtime or post on its port directly: nothing the host receives is trusted.
 * Every message is parsed with these zod schemas before it is acted on — the envelope, the
 * parameters of each host method, the descriptor `load` returns and each call's result.
 * Workspace access (readFile, listFiles, writeFile) names the call token of a call the host is
 * running for this plugin; sandboxed.ts honours it only while that call is in flight.
 */
import { z } from "zod";
import type { PluginManifest, ProviderContribution, AutomationEventType, McpServerContribution, RuleContribution } from "../types";
import { CAPABILITIES } from "../types";
import { HOOK_POINTS, type HookPoint } from "../../agent/hooks";

export type ToolDescriptor = { name: string; description: string; inputSchema: Record<string, unknown>; effects: string[] };

export type PluginDescriptor = {
  name: string;
  manifest: PluginManifest;
  tools: ToolDescriptor[];
  commands: { name: string; description?: string }[];
  rules: RuleContribution[];
  builders: string[];
  providers: ProviderContribution[];
  automationEventTypes: AutomationEventType[];
  mcpServers: McpServerContribution[];
  hooks: HookPoint[];
};

/**
 * The context a sandboxed tool gets: data, and calls back to the host (checked there).
 * `call` is the token of this call: host calls carry it, and it is void once the call ends.
 */
export type SandboxToolContext = { mode: string; readOnly: boolean; sessionId: string; toolCallId: string; call: string };

export type LoadParams = { name: string; source: string; ctx: { workspaceInfo: unknown; session: { id: string; mode: string } } };

const shortText = (max: number) => z.string().max(max);

/** The plugin's description of itself, as `load` answers it (checked against its manifest in sandboxed.ts). */
export const pluginDescriptorSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i),
  manifest: z.strictObject({
    capabilities: z.array(z.enum(CAPABILITIES)).min(1),
    providerIds: z.array(shortText(200)).max(100).optional(),
    modelIds: z.array(shortText(200)).max(100).optional(),
  }),
  tools: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
        description: shortText(10_000),
        inputSchema: z.record(z.string(), z.unknown()),
        effects: z.array(shortText(40)).max(10),
      }),
    )
    .max(100),
  commands: z.array(z.strictObject({ name: z.string().regex(/^\/?[a-z][\w-]{0,63}$/i), description: shortText(2000).optional() })).max(100),
  rules: z.array(z.strictObject({ id: shortText(200), content: shortText(100_000) })).max(100),
  builders: z.array(shortText(100)).max(20),
  providers: z
    .array(
      z.strictObject({
        id: shortText(100),
        name: shortText(200),
        description: shortText(2000).optional(),
        baseURL: shortText(2000).optional(),
        kind: z.enum(["openai-compatible", "openai", "anthropic"]).optional(),
        models: z.array(shortText(200)).max(500).optional(),
        needsKey: z.boolean().optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .max(20),
  automationEventTypes: z.array(z.strictObject({ eventType: shortText(200), source: shortText(200), description: shortText(2000).optional() })).max(100),
  mcpServers: z.array(z.strictObject({ name: shortText(100), url: shortText(2000), headers: z.record(z.string(), shortText(4000)).optional() })).max(20),
  hooks: z.array(z.enum(HOOK_POINTS as [HookPoint, ...HookPoint[]])).max(HOOK_POINTS.length),
});

/** Which capability each part of a descriptor needs (the runtime checks the same; the host does not rely on it). */
export const DESCRIPTOR_CAPABILITY = {
  tools: "tools",
  commands: "commands",
  rules: "rules",
  builders: "messageBuilders",
  providers: "providers",
  automationEventTypes: "automationEvents",
  mcpServers: "mcp",
  hooks: "hooks",
} as const;

/** Parameters of the methods the host offers a plugin. */
export const hostMethods = {
  "host.log": z.strictObject({ level: z.enum(["info", "warn", "error"]), message: z.string() }),
  "host.telemetry": z.strictObject({ name: shortText(100), value: z.number().finite() }),
  "host.steer": z.strictObject({ text: shortText(20_000) }),
  "host.readFile": z.strictObject({ call: z.string().min(1).max(100), path: shortText(4096) }),
  "host.listFiles": z.strictObject({ call: z.string().min(1).max(100), path: shortText(4096).optional() }),
  "host.writeFile": z.strictObject({ call: z.string().min(1).max(100), path: shortText(4096), text: z.string().max(20 * 1024 * 1024) }),
} as const;
export type HostMethod = keyof typeof hostMethods;

/** What a sandboxed tool may answer (a bare string is wrapped by the runtime). */
export const toolResultSchema = z.object({ output: z.string(), isError: z.boolean().optional(), summary: z.string().optional() });
/** What a command may answer. */
export const commandResultSchema = z.union([z.string(), z.object({ reply: z.string().optional(), submitPrompt: z.string().optional() }), z.null()]);
/** What a hook may answer: a decision object, or nothing. Its fields are checked by the agent's hook pipeline. */
export const hookResultSchema = z.union([z.record(z.string(), z.unknown()), z.null()]).optional();
