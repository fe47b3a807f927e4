/**
 * A git command's standard streams: what it prints (text, or raw bytes for blob contents), its
 * errors, and its stdin.
 */

export class GitOutput {
  /** The command's standard input (decoded), for `commit -F -`. */
  stdin = "";
  private readonly outChunks: (string | Uint8Array)[] = [];
  private readonly errChunks: string[] = [];

  out(s: string): void {
    this.outChunks.push(s);
  }

  /** Raw bytes on stdout (blob contents): the result is then byte-shaped. */
  outBytes(b: Uint8Array): void {
    this.outChunks.push(b);
  }

  err(s: string): void {
    this.errChunks.push(s);
  }

  /** stdout as text or, when raw bytes were written, as a latin1 byte string. */
  stdoutResult(): { stdout: string; bytes: boolean } {
    if (!this.outChunks.some((c) => typeof c !== "string")) return { stdout: this.outChunks.join(""), bytes: false };
    const enc = new TextEncoder();
    let out = "";
    for (const c of this.outChunks) {
      const b = typeof c === "string" ? enc.encode(c) : c;
      for (let i = 0; i < b.length; i += 0x8000) out += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000) as unknown as number[]);
    }
    return { stdout: out, bytes: true };
  }

  get stderr(): string {
    return this.errChunks.join("");
  }
}
