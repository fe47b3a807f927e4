import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type GitHttpServerOptions = {
  /** Accept pushes (`http.receivepack=true` in the served repository). */
  receivePack?: boolean;
  /** Answer 401 to every request without these Basic credentials. */
  auth?: { username: string; password: string };
};

/** One request as the server saw it: what a test checks credentials stay out of. */
export type LoggedRequest = { method: string; url: string; authorized: boolean };

/**
 * A real git smart-HTTP server on 127.0.0.1 for clone, fetch and push tests: native `git http-backend`
 * behind a small CGI bridge. No network beyond this machine. `bare` is the served repository, for native
 * git to inspect and push to; `log` lists the requests (method and URL, never their headers).
 */
export async function startGitHttpServer(files: Record<string, string>, options: GitHttpServerOptions = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-git-http-"));
  const work = path.join(root, "work");
  fs.mkdirSync(work);
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "t@example.com",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const git = (args: string[], cwd: string) => execFileSync("git", args, { cwd, env, stdio: "pipe" });
  git(["-c", "init.defaultBranch=main", "init", "-q"], work);
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, p)), { recursive: true });
    fs.writeFileSync(path.join(work, p), content);
  }
  git(["add", "-A"], work);
  git(["commit", "-qm", "initial"], work);
  const bare = path.join(root, "repo.git");
  git(["clone", "-q", "--bare", work, bare], root);
  if (options.receivePack) git(["config", "http.receivepack", "true"], bare);
  const expectedAuth = options.auth ? "Basic " + Buffer.from(`${options.auth.username}:${options.auth.password}`).toString("base64") : null;
  const log: LoggedRequest[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const authorized = expectedAuth !== null && req.headers.authorization === expectedAuth;
    log.push({ method: req.method ?? "GET", url: req.url ?? "/", authorized });
    if (url.pathname.startsWith("/not-git")) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Just a web page</body></html>");
      return;
    }
    if (expectedAuth !== null && !authorized) {
      req.resume();
      res.writeHead(401, { "www-authenticate": 'Basic realm="test"', "content-type": "text/plain" });
      res.end("Authentication required\n");
      return;
    }
    const cgi = spawn("git", ["http-backend"], {
      env: {
        ...env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        CONTENT_LENGTH: req.headers["content-length"] ?? "",
        HTTP_GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
        REMOTE_ADDR: "127.0.0.1",
        ...(options.auth ? { REMOTE_USER: options.auth.username } : {}),
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on("data", (c: Buffer) => chunks.push(c));
    cgi.on("close", () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf("\r\n\r\n");
      const headerText = out.subarray(0, split).toString();
      const body = out.subarray(split + 4);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of headerText.split("\r\n")) {
        const i = line.indexOf(":");
        const key = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (key.toLowerCase() === "status") status = parseInt(value, 10);
        else if (key) headers[key] = value;
      }
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/repo.git`,
    notGitUrl: `http://127.0.0.1:${port}/not-git`,
    /** The served bare repository on disk. */
    bare,
    /** The environment native git runs with against this server (fixed identity, no user config). */
    env,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }).finally(() => fs.rmSync(root, { recursive: true, force: true })),
  };
}
