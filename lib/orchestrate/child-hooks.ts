/**
 * A child session (a sub-agent, a team member) runs under its parent's plugins' hooks: a policy
 * plugin that refuses a command or checks an edit in the parent must hold in its children too,
 * or delegating would be a way around it. The child follows the parent's registry: the
 * registrations plugins made there (named "plugin:…") are registered in the child's, and leave
 * it when the plugin unloads. The parent's own policies (budget, mode nudges, checkpoints) are
 * not copied: a child has its own. Hidden paths need nothing here: children share the parent's
 * workspace view (AgentDeps), from which hidden paths are absent.
 *
 * Plugins' tools, commands and message builders stay with the parent: a child's surface is its
 * role's allow-list of the app's tools.
 *
 * Framework-free.
 */
import type { HookRegistration, HookRegistry } from "../agent/hooks";
import type { AgentSession } from "../agent/session";

const PLUGIN_PREFIX = "plugin:";

/** Keep `to` holding `from`'s plugin hooks until the returned function is called. */
export function followPluginHooks(from: HookRegistry, to: HookRegistry): () => void {
  const mirrored = new Map<HookRegistration, () => void>();
  const sync = () => {
    const now = from.list().filter((r) => r.name.startsWith(PLUGIN_PREFIX));
    for (const [reg, off] of mirrored) {
      if (!now.includes(reg)) {
        off();
        mirrored.delete(reg);
      }
    }
    for (const reg of now) if (!mirrored.has(reg)) mirrored.set(reg, to.register(reg));
  };
  sync();
  const offChange = from.onChange(sync);
  return () => {
    offChange();
    for (const off of mirrored.values()) off();
    mirrored.clear();
  };
}

/** `followPluginHooks` for a child's one run (a sub-agent, a team task): it stops following when the run ends. */
export function followPluginHooksForRun(parent: Pick<AgentSession, "hooks">, child: AgentSession): void {
  const off = followPluginHooks(parent.hooks, child.hooks);
  const offEvents = child.subscribe((e) => {
    if (e.type !== "run-finished") return;
    off();
    offEvents();
  });
}
