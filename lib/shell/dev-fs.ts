/**
 * `/dev` for the workspace shell: `/dev/null` reads as empty and swallows what is written to it,
 * whichever way it is reached (`< /dev/null`, `cat /dev/null`, `cp a.txt /dev/null`, a program
 * opening it). just-bash special-cases only output redirections to it; without this, reading it
 * failed with "No such file or directory" and copying to it left a file there that the next
 * reader saw.
 */
import type { InMemoryFs } from "just-bash";

type InMemoryFsClass = new () => InMemoryFs;

const NULL = "/null";

function isNull(path: string): boolean {
  return path.replace(/\/+$/, "") === NULL;
}

function refused(op: string, path: string): Error {
  return Object.assign(new Error(`EPERM: operation not permitted, ${op} '/dev${path}'`), { code: "EPERM" });
}

/** A file system to mount at /dev, made from just-bash's in-memory file system. */
export function createDevFs(Base: InMemoryFsClass): InMemoryFs {
  class DevFs extends (Base as unknown as new () => InMemoryFs) {
    override async writeFile(...args: Parameters<InMemoryFs["writeFile"]>): Promise<void> {
      if (isNull(args[0])) return;
      return super.writeFile(...args);
    }
    override async appendFile(...args: Parameters<InMemoryFs["appendFile"]>): Promise<void> {
      if (isNull(args[0])) return;
      return super.appendFile(...args);
    }
    override async rm(...args: Parameters<InMemoryFs["rm"]>): Promise<void> {
      if (isNull(args[0])) throw refused("unlink", args[0]);
      return super.rm(...args);
    }
    override async mv(...args: Parameters<InMemoryFs["mv"]>): Promise<void> {
      if (isNull(args[0]) || isNull(args[1])) throw refused("rename", args[0]);
      return super.mv(...args);
    }
  }
  const dev = new DevFs();
  dev.writeFileSync(NULL, "");
  return dev;
}
