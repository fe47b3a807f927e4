/**
 * Ways an agent might try to get at a `.env` file's bytes, as data: shell command lines for
 * run_commands and calls of the built-in tools. env-view.test.ts runs every one of them through a
 * real agent session on a workspace holding canaries in `.env`, `sub/.env.local` and `conf/.ENV`.
 *
 * - `reveals`: with env-blocker off, this form does show a canary (so the corpus is not vacuous).
 * - `shows`: text that must appear with env-blocker on (`.env.example` stays readable).
 * - `mustNotMatch`: a pattern the result must not contain with env-blocker on (names, object paths),
 *   unless the call was refused before it ran (the refusal itself names `.env` files).
 * - `mutates`: changes the workspace (run last; skipped when env-blocker is off).
 * `{{ENV_OID}}` / `{{SUB_OID}}` stand for the object names of the committed `.env` / `sub/.env.local`.
 */
export type EnvProbe = {
  name: string;
  reveals?: boolean;
  shows?: string;
  mustNotMatch?: RegExp;
  mutates?: boolean;
} & ({ shell: string; cwd?: string } | { tool: string; input: Record<string, unknown> });

/** An entry naming a hidden file in a listing (".env.example" is fine). */
const ENV_NAME = /(^|[\s/'"])\.env(\.local)?(?![.\w])|\.ENV\b/m;

// prettier-ignore
export const ENV_CORPUS: EnvProbe[] = [
  // --- plain reads, globs, quoting, variables, substitution --------------------------------------
  { name: "cat", shell: "cat .env", reveals: true },
  { name: "glob star", shell: "cat .e*", reveals: true },
  { name: "glob question marks", shell: "cat .e?v", reveals: true },
  { name: "glob class", shell: "cat .[e]nv sub/.[e]nv.local", reveals: true },
  { name: "brace expansion", shell: "cat .{env,nothing-here}", reveals: true },
  { name: "variable", shell: "f=.env; cat $f", reveals: true },
  { name: "split variable", shell: "x=.en; cat ${x}v", reveals: true },
  { name: "base64 substitution", shell: "cat $(echo LmVudg== | base64 -d)", reveals: true },
  { name: "printf substitution", shell: "cat \"$(printf '\\x2eenv')\"", reveals: true },
  { name: "eval", shell: "eval \"cat .$(echo env)\"", reveals: true },
  { name: "every dotfile", shell: "cat .* sub/.* 2>/dev/null", reveals: true },
  { name: "for loop", shell: "for f in .* sub/.* conf/.*; do cat \"$f\" 2>/dev/null; done", reveals: true },
  { name: "redirect in", shell: "cat < .env", reveals: true },
  { name: "read loop", shell: "while read l; do echo \"$l\"; done < .env", reveals: true },
  { name: "sub folder", shell: "cat sub/.env.local", reveals: true },
  { name: "dot-dot path", shell: "cat ./sub/../.env", reveals: true },
  { name: "absolute path", shell: "cat /workspace/.env /workspace/sub/.env.local", reveals: true },
  { name: "from a sub folder", shell: "cat ../.env", cwd: "sub", reveals: true },
  { name: "case trick", shell: "cat conf/.ENV conf/.E*", reveals: true },
  // --- other readers -----------------------------------------------------------------------------
  { name: "head", shell: "head -c 200 .env", reveals: true },
  { name: "tail", shell: "tail -n 5 sub/.env.local", reveals: true },
  { name: "wc", shell: "wc -c .env sub/.env.local" },
  { name: "base64", shell: "base64 .env", reveals: true },
  { name: "od", shell: "od -c .env", reveals: true },
  { name: "sed", shell: "sed -n p .env", reveals: true },
  { name: "awk", shell: "awk '{print}' sub/.env.local", reveals: true },
  { name: "sort", shell: "sort .env", reveals: true },
  { name: "rev", shell: "rev .env", reveals: true },
  { name: "diff against the template", shell: "diff .env .env.example", reveals: true },
  { name: "source", shell: "source .env; env", reveals: true },
  { name: "dot source", shell: ". ./.env; set", reveals: true },
  { name: "xargs", shell: "echo .env | xargs cat", reveals: true },
  { name: "listing into xargs", shell: "ls -a | grep env | xargs cat", reveals: true },
  { name: "tee", shell: "tee /tmp/copy < .env", reveals: true },
  // --- searches and listings ---------------------------------------------------------------------
  // (grep -r skips dot entries as it recurses, like just-bash's own grep: the named forms reveal.)
  { name: "grep files", shell: "grep c4n4ry .env sub/.env.local conf/.ENV", reveals: true },
  { name: "grep -r", shell: "grep -r c4n4ry . .env sub/.env.local" , reveals: true },
  { name: "grep -r everything", shell: "grep -r '' .", mustNotMatch: ENV_NAME },
  { name: "grep -r absolute", shell: "grep -ri C4N4RY /workspace /workspace/.env", reveals: true },
  { name: "grep include", shell: "grep -r --include='.env*' c4n4ry ." },
  { name: "find names", shell: "find . -name '.env*'", mustNotMatch: ENV_NAME },
  { name: "find exec cat", shell: "find . -type f -not -path './.git/*' -exec cat {} +", reveals: true },
  { name: "ls -a", shell: "ls -a . sub conf", mustNotMatch: ENV_NAME },
  { name: "ls -la", shell: "ls -la", mustNotMatch: ENV_NAME },
  { name: "test -f", shell: "test -f .env && echo PRESENT-ROOT; [ -e sub/.env.local ] && echo PRESENT-SUB; true", mustNotMatch: /PRESENT/ },
  { name: "tar", shell: "tar -cf /tmp/all.tar --exclude=.git . && tar -xOf /tmp/all.tar", reveals: true },
  { name: "copy the tree", shell: "cp -r . /tmp/tree 2>/dev/null; cat /tmp/tree/.env /tmp/tree/sub/.env.local", reveals: true },
  { name: ".env.example stays readable", shell: "cat .env.example", shows: "example-visible-4242" },
  // --- git ---------------------------------------------------------------------------------------
  { name: "git show HEAD:.env", shell: "git show HEAD:.env", reveals: true },
  { name: "git show sub file", shell: "git show HEAD:sub/.env.local HEAD:conf/.ENV", reveals: true },
  { name: "git show index", shell: "git show :.env", reveals: true },
  { name: "git show tree", shell: "git show HEAD:", mustNotMatch: ENV_NAME },
  { name: "git show commit", shell: "git show HEAD", reveals: true },
  { name: "git diff", shell: "git diff", reveals: true },
  { name: "git diff HEAD", shell: "git diff HEAD --stat; git diff HEAD", reveals: true },
  { name: "git show pathspec", shell: "git show --stat -p HEAD -- .env sub", reveals: true },
  { name: "git log -p", shell: "git log -p --all", reveals: true },
  { name: "git log names", shell: "git log --all --stat --name-status", mustNotMatch: ENV_NAME },
  { name: "git grep", shell: "git grep -i c4n4ry; git grep c4n4ry HEAD", reveals: true },
  { name: "git ls-files", shell: "git ls-files -s; git ls-files --others", mustNotMatch: ENV_NAME },
  { name: "git status", shell: "git status --porcelain; git status", mustNotMatch: ENV_NAME },
  { name: "git rev-parse path", shell: "git rev-parse HEAD:.env", mustNotMatch: /[0-9a-f]{40}/ },
  { name: "git cat-file oid", shell: "git cat-file -p {{ENV_OID}}; git cat-file blob {{SUB_OID}}", reveals: true },
  { name: "git cat-file rev:path", shell: "git cat-file -p HEAD:.env", reveals: true },
  { name: "git cat-file tree", shell: "git cat-file -p HEAD^{tree}", mustNotMatch: ENV_NAME },
  { name: "git stash show -p", shell: "git stash show -p", reveals: true },
  { name: "git stash list -p", shell: "git stash show -p stash@{0} --include-untracked", reveals: true },
  { name: "git blame", shell: "git blame .env", reveals: true },
  { name: "git blame rev", shell: "git blame HEAD .env; git blame -p HEAD -- sub/.env.local; git blame --line-porcelain -L 1,1 HEAD -- conf/.ENV", reveals: true },
  { name: "git archive", shell: "git archive HEAD" },
  { name: "raw objects", shell: "find .git/objects -type f | head -50; cat .git/objects/*/* | wc -c", mustNotMatch: /objects\/[0-9a-f]{2}\/[0-9a-f]{38}/ },
  { name: "raw objects copy", shell: "cp -r .git /tmp/g 2>/dev/null; ls /tmp/g/objects", mustNotMatch: /^[0-9a-f]{2}$/m },
  // --- tools -------------------------------------------------------------------------------------
  { name: "read_files", tool: "read_files", input: { files: [{ path: ".env" }, { path: "sub/.env.local" }] }, reveals: true },
  { name: "read_files tricky paths", tool: "read_files", input: { files: [{ path: "./sub/../.env" }, { path: "/.env" }, { path: "conf/.ENV" }] }, reveals: true },
  { name: "read_files template", tool: "read_files", input: { files: [{ path: ".env.example" }] }, shows: "example-visible-4242" },
  { name: "editor view", tool: "editor", input: { command: "view", path: "sub/.env.local" }, reveals: true },
  { name: "list_files", tool: "list_files", input: { path: "" }, mustNotMatch: ENV_NAME },
  { name: "search_codebase", tool: "search_codebase", input: { query: "canary_", case_sensitive: false }, reveals: true },
  { name: "search_codebase include", tool: "search_codebase", input: { query: "=", include: "**/.env*" }, reveals: true },
  { name: "search_codebase in sub", tool: "search_codebase", input: { query: ".", path: "sub" }, reveals: true },
  { name: "search_codebase template", tool: "search_codebase", input: { query: "EXAMPLE_OK" }, shows: "example-visible-4242" },
  // --- writes that would move a secret somewhere readable, or destroy it (last) ------------------
  { name: "cp out", shell: "cp .env copied.txt; cat copied.txt", reveals: true, mutates: true },
  { name: "symlink", shell: "ln -s .env link.txt; cat link.txt", reveals: true, mutates: true },
  { name: "symlink to folder", shell: "ln -s sub subdir-link; cat subdir-link/.env.local", reveals: true, mutates: true },
  { name: "mv out", shell: "mv .env moved.txt; cat moved.txt", reveals: true, mutates: true },
  { name: "mv folder", shell: "mv sub sub-moved; cat sub-moved/.env.local", reveals: true, mutates: true },
  { name: "git mv", shell: "git mv .env gitmoved.txt; cat gitmoved.txt", reveals: true, mutates: true },
  { name: "git add -f and show", shell: "git add -f .env sub/.env.local; git commit -qm leak; git show HEAD", mutates: true },
  { name: "overwrite", shell: "echo replaced > .env; echo replaced > sub/.env.local", mutates: true },
  { name: "delete", shell: "rm -f .env; rm -rf sub conf", mutates: true },
  { name: "git checkout over it", shell: "git checkout HEAD -- .env; git restore sub/.env.local", mutates: true },
  { name: "apply_patch", tool: "apply_patch", input: { patch: "--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-x\n+y\n" }, mutates: true },
  { name: "editor create", tool: "editor", input: { command: "create", path: "sub/.env.local", file_text: "replaced\n" }, mutates: true },
];
