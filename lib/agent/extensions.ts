/**
 * What plugins and the mode wiring add to a session (`session.extensions`): tools, the mode's
 * tool surface, message builders, system-prompt rules, slash commands and hidden paths. Each
 * `add`/`register` returns the function that takes it away again.
 */
import type { HiddenPathRule } from "../fs/hidden-view";
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { ToolDefinition } from "../tools/define";
import type { MessageBuilder } from "./compaction";
import type { SessionCore } from "./session-core";
import type { ToolSurface } from "./session-types";
import type { SlashCommand, SlashCommands } from "./slash-commands";

export class SessionExtensions {
  constructor(
    private readonly core: SessionCore,
    private readonly commands: SlashCommands,
  ) {}

  /** Every tool the session knows (the current mode may offer fewer: `surfaceTools`). */
  get allTools(): readonly ToolDefinition[] {
    return this.core.tools;
  }
  /** The tools offered in the current mode. */
  get surfaceTools(): readonly ToolDefinition[] {
    return this.core.surfaceTools();
  }
  /** Add (or replace by name) a tool. */
  addTool(tool: ToolDefinition): () => void {
    this.core.tools = [...this.core.tools.filter((t) => t.name !== tool.name), tool];
    return () => {
      this.core.tools = this.core.tools.filter((t) => t !== tool);
    };
  }
  setTools(tools: ToolDefinition[]): void {
    this.core.tools = [...tools];
  }
  setSurface(surface: ToolSurface): void {
    this.core.surface = surface;
  }

  /** Add a message builder after the existing ones (plugins, in registration order). */
  addMessageBuilder(builder: MessageBuilder): () => void {
    this.core.builders = [...this.core.builders, builder];
    return () => {
      this.core.builders = this.core.builders.filter((b) => b !== builder);
    };
  }
  /** Replace all message builders (e.g. the custom-compaction plugin instead of the built-in). */
  setMessageBuilders(builders: MessageBuilder[]): void {
    this.core.builders = [...builders];
  }

  /** System-prompt text from a plugin. */
  registerRule(id: string, text: string): () => void {
    this.core.extraRules.set(id, { source: id, text });
    return () => this.core.extraRules.delete(id);
  }

  registerCommand(command: SlashCommand): () => void {
    return this.commands.register(command);
  }
  get slashCommands(): { name: string; description?: string }[] {
    return this.commands.list();
  }

  /**
   * The workspace as the agent's tools see it: without the paths hidden by policy (env-blocker's
   * `.env` files). Plugin tools read and write through this view too, never around it.
   */
  get workspaceView(): WorkspaceFs {
    return this.core.deps.wsfs;
  }
  /**
   * Hide paths from the agent while a policy is on (the env-blocker plugin's `.env` files): they
   * become absent from the file view the tools and the shell use (AgentDeps.hiddenPaths, see
   * lib/fs/hidden-view). Returns the function that shows them again. Deps without a
   * HiddenPathSet (test fakes) hide nothing.
   */
  hidePaths(rule: HiddenPathRule): () => void {
    return this.core.deps.hiddenPaths?.add(rule) ?? (() => undefined);
  }
}
