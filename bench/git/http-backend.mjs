/**
 * Native `git http-backend` behind a small CGI bridge on 127.0.0.1 (the bench's git server;
 * e2e/helpers/git-http-server.ts is the tests' own, with pushes and credentials). Serves every
 * repository under `root`; `extra` may answer other paths first (the page and the app's proxy).
 */
import { spawn } from "node:child_process";
import http from "node:http";

export async function serveGit(root, extra) {
  const server = http.createServer(async (req, res) => {
    if (extra && (await extra(req, res))) return;
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        CONTENT_LENGTH: req.headers["content-length"] ?? "",
        HTTP_GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(cgi.stdin);
    // Headers first (up to the blank line), then the body streamed as the CGI writes it.
    let head = Buffer.alloc(0);
    let started = false;
    cgi.stdout.on("data", (chunk) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const split = head.indexOf("\r\n\r\n");
      if (split < 0) return;
      let status = 200;
      const headers = {};
      for (const line of head.subarray(0, split).toString().split("\r\n")) {
        const i = line.indexOf(":");
        const key = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (key.toLowerCase() === "status") status = parseInt(value, 10);
        else if (key) headers[key] = value;
      }
      res.writeHead(status, headers);
      started = true;
      res.write(head.subarray(split + 4));
    });
    cgi.on("close", () => res.end());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
