/** /dev/null in the workspace shell: empty to read, swallowing writes, however it is reached. */
import { afterEach, describe, expect, it } from "vitest";
import { type TempWorkspace, tempWorkspace } from "./helpers";

describe("/dev/null", () => {
  let ws: TempWorkspace;
  afterEach(() => ws?.cleanup());

  it("reads as empty through cat, input redirection and test", async () => {
    ws = await tempWorkspace({ "a.txt": "hi\n" });
    expect(await ws.run("cat /dev/null | wc -c")).toMatchObject({ stdout: "0\n", stderr: "", exitCode: 0 });
    expect(await ws.run("wc -c < /dev/null")).toMatchObject({ stdout: "0\n", exitCode: 0 });
    expect((await ws.run("test -e /dev/null && echo yes")).stdout).toBe("yes\n");
  });

  it("swallows writes: redirections, cp and tee leave it empty", async () => {
    ws = await tempWorkspace({ "a.txt": "hello\n" });
    expect((await ws.run("cp a.txt /dev/null; echo $?")).stdout).toBe("0\n");
    expect((await ws.run("echo x | tee /dev/null")).stdout).toBe("x\n");
    expect((await ws.run("echo y >> /dev/null; cat /dev/null | wc -c")).stdout).toBe("0\n");
    expect(ws.read("a.txt")).toBe("hello\n");
  });

  it("cannot be removed or replaced, and /dev/stdout and /dev/stderr still work as targets", async () => {
    ws = await tempWorkspace({ "a.txt": "hello\n" });
    const rm = await ws.run("rm /dev/null");
    expect(rm.exitCode).not.toBe(0);
    expect((await ws.run("test -e /dev/null && echo still")).stdout).toBe("still\n");
    expect(await ws.run("echo out > /dev/stdout; echo err > /dev/stderr")).toMatchObject({ stdout: "out\n", stderr: "err\n" });
  });

  it("is there in the read-only view too", async () => {
    ws = await tempWorkspace({ "a.txt": "hello\n" }, { readOnly: true });
    expect(await ws.run("cat a.txt > /dev/null; wc -c < /dev/null")).toMatchObject({ stdout: "0\n", exitCode: 0 });
  });
});
