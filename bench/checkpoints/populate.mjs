/**
 * Fill a lightning-fs database directly in IndexedDB (one transaction): the superblock (the
 * Map tree lightning-fs keeps as "!root") plus every file's bytes under its inode number.
 * Writing 10,000 files through lightning-fs itself costs one IndexedDB transaction and one
 * whole-tree inode scan per file; this is setup, not what is measured.
 */
const enc = new TextEncoder();

export async function populateIdb(idb, name, files, dir = "/ws") {
  const mtimeMs = Date.now() - 60_000;
  let ino = 0;
  const stat = (type, mode, size = 0) => ({ mode, type, size, ino: ++ino, mtimeMs, uid: 1, gid: 1 });
  const root = new Map([[0, { mode: 0o777, type: "dir", size: 0, ino: 0, mtimeMs, uid: 1, gid: 1 }]]);
  const data = new Map();
  const dirNode = (abs) => {
    let node = root;
    for (const part of abs.split("/").filter(Boolean)) {
      let next = node.get(part);
      if (!next) {
        next = new Map([[0, stat("dir", 0o777)]]);
        node.set(part, next);
      }
      node = next;
    }
    return node;
  };
  const put = (abs, bytes, mode = 0o644) => {
    const i = abs.lastIndexOf("/");
    const parent = dirNode(abs.slice(0, i));
    const st = stat("file", mode, bytes.length);
    parent.set(abs.slice(i + 1), new Map([[0, st]]));
    data.set(st.ino, bytes);
  };
  for (const f of files) put(`${dir}/${f.path}`, f.data, f.exec ? 0o755 : 0o644);
  // a repository shipped whole (the real-shaped workload) brings its own HEAD and config
  const given = new Set(files.map((f) => f.path));
  if (!given.has(".git/HEAD")) put(`${dir}/.git/HEAD`, enc.encode("ref: refs/heads/main\n"));
  if (!given.has(".git/config")) put(`${dir}/.git/config`, enc.encode("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"));
  dirNode(`${dir}/.git/objects`);
  dirNode(`${dir}/.git/refs/heads`);
  dirNode(`${dir}/.git/refs/tags`);
  const superblock = new Map([["/", root]]);
  const db = await new Promise((resolve, reject) => {
    const req = idb.open(name, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(name + "_files");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction(name + "_files", "readwrite");
    const store = tx.objectStore(name + "_files");
    for (const [k, v] of data) store.put(v, k);
    store.put(superblock, "!root");
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
  db.close();
}

export function deleteIdb(idb, name) {
  return Promise.all(
    [name, name + "_lock"].map(
      (n) =>
        new Promise((resolve) => {
          const req = idb.deleteDatabase(n);
          req.onsuccess = req.onerror = req.onblocked = () => resolve();
        }),
    ),
  );
}
