import { fuzzyMatch } from "../search/fuzzy";
import { matchesKeybinding, parseKeybinding, type KeyLike, type Keybinding } from "./keybinding";
import { RecentList } from "./recent";

/**
 * The workbench's commands: every action a person can take from the command palette, declared once
 * with its title, category and keybindings. Components register the actions they own while they are
 * on screen; the palette lists and runs them; one key listener dispatches their keybindings, so the
 * shortcut shown in the palette is the shortcut that runs.
 */

/** What a command can ask the person running it, through the palette's own input. */
export interface CommandContext {
  /** A line of text (a file name, a branch name); undefined when dismissed. */
  ask(question: AskOptions): Promise<string | undefined>;
  /** One item of a list (a branch to switch to); its id, or undefined when dismissed. */
  pick(question: PickOptions): Promise<string | undefined>;
}

export interface AskOptions {
  title: string;
  placeholder?: string;
  value?: string;
  /** An error message for a value that cannot be accepted, shown as the person types. */
  validate?: (value: string) => string | undefined;
}

export interface PickItem {
  id: string;
  label: string;
  detail?: string;
}

export interface PickOptions {
  title: string;
  items: PickItem[];
}

export interface Command {
  /** Stable and unique: "terminal.toggle". Recent use is remembered by id. */
  id: string;
  title: string;
  /** Shown before the title: "Terminal: Toggle Terminal". */
  category: string;
  /** Keybindings, the first one the primary ("Ctrl+Shift+P", "F1"). */
  keys?: string[];
  /** Whether the command can run now; a command that cannot is not listed and its keys pass through. */
  enabled?: () => boolean;
  /** False for a command that is not worth listing among the recently used (the palette's own). */
  remember?: boolean;
  run: (ctx: CommandContext) => void | Promise<void>;
}

export interface PaletteEntry {
  command: Command;
  label: string;
  score: number;
  /** Indices into `label` that matched, for highlighting. */
  positions: number[];
  recent: boolean;
}

interface Registered {
  command: Command;
  bindings: Keybinding[];
}

/** A recently run command earns this much in the ranking, the next a little less, down to nothing. */
const RECENT_BOOST = 12;

export function commandLabel(c: Pick<Command, "category" | "title">): string {
  return `${c.category}: ${c.title}`;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Registered>();
  private readonly listeners = new Set<() => void>();
  readonly recent: RecentList;
  private readonly onRecent?: (recent: RecentList) => void;

  constructor(options: { recent?: RecentList; onRecentChange?: (recent: RecentList) => void } = {}) {
    this.recent = options.recent ?? new RecentList([], 30);
    this.onRecent = options.onRecentChange;
  }

  /**
   * Adds commands; returns what removes them again. A command registered under an id that exists
   * replaces it (the component that registered it re-rendered), and removing the older one later
   * leaves the newer in place.
   */
  register(...commands: Command[]): () => void {
    const added: Registered[] = commands.map((command) => {
      if (!command.id || !command.title || !command.category) throw new Error(`A command needs an id, a title and a category (got "${command.id}").`);
      return { command, bindings: (command.keys ?? []).map(parseKeybinding) };
    });
    for (const r of added) this.commands.set(r.command.id, r);
    this.changed();
    return () => {
      let removed = false;
      for (const r of added) {
        if (this.commands.get(r.command.id) === r) {
          this.commands.delete(r.command.id);
          removed = true;
        }
      }
      if (removed) this.changed();
    };
  }

  get(id: string): Command | undefined {
    return this.commands.get(id)?.command;
  }

  isEnabled(command: Command): boolean {
    try {
      return command.enabled ? command.enabled() : true;
    } catch {
      return false;
    }
  }

  /** Every command that can run now, by label. */
  available(): Command[] {
    return [...this.commands.values()]
      .map((r) => r.command)
      .filter((c) => this.isEnabled(c))
      .sort((a, b) => commandLabel(a).localeCompare(commandLabel(b)));
  }

  /** The enabled command bound to this key, if any (the most recently registered wins a clash). */
  forKey(e: KeyLike): Command | undefined {
    const all = [...this.commands.values()];
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i];
      if (r.bindings.some((b) => matchesKeybinding(b, e)) && this.isEnabled(r.command)) return r.command;
    }
    return undefined;
  }

  /** The palette's list: recently run first for an empty query, else by fuzzy score nudged by recent use. */
  search(query: string): PaletteEntry[] {
    const recentRank = new Map(this.recent.list().map((id, i) => [id, i]));
    const entries: PaletteEntry[] = [];
    for (const command of this.available()) {
      const label = commandLabel(command);
      const match = fuzzyMatch(query, label);
      if (!match) continue;
      const rank = recentRank.get(command.id);
      const boost = rank === undefined ? 0 : RECENT_BOOST * Math.max(0, 1 - rank / 10);
      entries.push({ command, label, score: match.score + boost, positions: match.positions, recent: rank !== undefined });
    }
    if (!query.trim())
      return entries.sort((a, b) => (recentRank.get(a.command.id) ?? Infinity) - (recentRank.get(b.command.id) ?? Infinity) || a.label.localeCompare(b.label));
    return entries.sort((a, b) => b.score - a.score || a.label.localeCompare(b.label));
  }

  /** Runs a command by id, remembering it as recently used. Unknown or disabled commands are refused. */
  async run(id: string, ctx: CommandContext): Promise<void> {
    const command = this.get(id);
    if (!command) throw new Error(`There is no command "${id}".`);
    if (!this.isEnabled(command)) throw new Error(`"${commandLabel(command)}" is not available now.`);
    if (command.remember !== false) {
      this.recent.touch(id);
      this.onRecent?.(this.recent);
    }
    await command.run(ctx);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
