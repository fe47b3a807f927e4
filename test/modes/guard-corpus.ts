/**
 * The Plan-mode guard corpus, as data. NEVER run these in a real shell: they are run only
 * through the project's own just-bash shell over temp directories (readonly-shell.test.ts),
 * and otherwise only parsed (command-guard.test.ts).
 *
 * Paths are relative to the fixture repo (FIXTURE_FILES in helpers.ts), or under the shell's
 * own /workspace, /tmp and /dev.
 */

/** Every form that writes: each must be flagged by findFileEditingCommand. */
// prettier-ignore
export const WRITE_CORPUS: Record<string, string[]> = {
  redirections: [
    "echo x > a.txt", "echo x >> a.txt", "echo x > new.txt", "echo x >| a.txt", "echo x 2> err.txt", "ls nope 2>> err.txt",
    "echo x &> both.txt", "echo x &>> both.txt", "echo x 1> f1.txt", "echo x 3> f3.txt", "echo x >&out.txt", "echo x > d/x.txt",
    "exec > out.txt; echo hi", "exec 3> out3.txt; echo hi >&3", "exec 2>err.txt; ls nope", "{ echo a; echo b; } > brace.txt",
    "(echo sub) > sub.txt", "{ echo a; } 2> g.txt", "if true; then echo x; fi > iffile.txt", "for i in 1; do echo $i; done > forfile.txt",
    "while false; do :; done > whilefile.txt", "echo x > .git/HEAD", "printf 'x' > a.txt", "cat a.txt > b.txt", ": > a.txt", "> a.txt",
    "echo x | cat > piped.txt", "echo x > $(echo a.txt)", "f=a.txt; echo x > $f", "echo x > \"a.txt\"", "echo x > \"$(printf a.txt)\"",
    "for i in 1 2; do echo $i > loop$i.txt; done", "while read l; do echo $l > w.txt; done < a.txt", "if true; then echo x > if.txt; fi",
    "case x in x) echo x > case.txt;; esac", "echo x 1<> rw.txt", "cat a.txt <> a.txt", "echo x > /workspace/abs.txt", "echo x > a.txt &",
    "true && echo x > and.txt", "false || echo x > or.txt", "! echo x > not.txt", "echo {a,b} > brace-exp.txt", "echo x >> ~/tilde.txt",
    "time echo x > timed.txt", "exec {fd}>fdvar.txt",
  ],
  heredocs: [
    "cat > heredoc.txt <<EOF\nhello\nEOF", "cat <<EOF > heredoc2.txt\nx\nEOF", "cat <<'EOF' >> a.txt\n$(not run)\nEOF",
    "cat <<-EOF > tabs.txt\n\tx\n\tEOF", "cat <<EOF\n$(echo x > hd-subst.txt)\nEOF", "tee hd-tee.txt <<EOF\nx\nEOF",
    "cat <<\\EOF\n  EOF\nrm -rf d\nEOF", "bash -c 'cat <<\\EOF\n  EOF\nrm -rf d\nEOF'", "bash <<EOF\nrm -rf d\nEOF",
  ],
  substitutions: [
    "echo $(echo x > inner.txt)", "echo `echo x > tick.txt`", "echo \"$(echo x > dq.txt)\"", "x=$(echo y > assign.txt)",
    "echo ${x:-$(echo y > default.txt)}", "cat <(echo x > procsub.txt)", "echo x | tee >(cat > psub.txt)", "echo x > >(cat)",
    "x=$(( $(echo 1 > arith.txt; echo 1) + 1 ))", "(( $(echo 1 > arithcmd.txt; echo 1) ))", "echo $[ $(echo 1 > oldarith.txt) ]",
    "echo $(rm -rf d)", "x=`rm a.txt`", "cat <(rm -rf d)", "diff <(rm a.txt) b.txt", "x=$(( $(rm -rf d; echo 1) + 1 ))",
    "echo $(( $(rm a.txt) ))", "echo ${x:-$(rm a.txt)}", "echo ${x:=`touch t.txt`}", "[[ $(rm a.txt) ]]",
    "case $(rm a.txt) in *) ;; esac", "for f in $(rm a.txt); do :; done", "echo $(( ${x:-$(rm a.txt)} + 1 ))", "a=(1 $(rm a.txt))",
    "echo ${a[$(rm a.txt)]}", "for ((i=$(rm a.txt);i<1;i++)); do :; done", "echo ${x/$(rm a.txt)/y}", "echo {a,$(rm a.txt)}",
  ],
  tee: [
    "echo x | tee t.txt", "echo x | tee -a a.txt", "echo x | tee /workspace/t2.txt > /dev/null", "ls | tee list.out",
    "echo x | tee -- dash.txt", "echo x | tee /dev/null t3.txt",
  ],
  sed: [
    "sed -i 's/hello/HI/' a.txt", "sed -i.bak 's/hello/HI/' a.txt", "sed -i -e 's/a/b/' a.txt", "sed --in-place 's/a/b/' a.txt",
    "sed --in-place=.orig 's/a/b/' a.txt", "sed -ni 's/a/b/p' a.txt", "sed -Ei 's/a+/b/' a.txt", "sed -n 'w out.txt' a.txt",
    "sed '1w first.txt' a.txt", "sed -n '/hello/W w2.txt' a.txt", "sed 's/x/y/w sedw.txt' a.txt", "sed 's/.*/echo hi/e' a.txt",
    "sed '1e touch e.txt' a.txt", "sed -e 's/a/b/' -e 'w multi.txt' a.txt", "sed -f script.sed a.txt", "sed \"$SCRIPT\" a.txt",
    "sed -n '/a/{p;w block.txt\n}' a.txt", "sed -n '$w last.txt' a.txt", "sed ':a;N;$!ba;w label.txt' a.txt",
    "sed '1r b.txt; w after-r.txt' a.txt", "sed 's/l/L/;T;w after-t.txt' a.txt", "sed --expression='w expr.txt' a.txt",
    "sed 's/a/b/gw gw.txt' a.txt", "sed '1,$ w range.txt' a.txt",
  ],
  awk: [
    "awk '{print > \"awk.txt\"}' a.txt", "awk '{print >> \"a.txt\"}' b.txt", "awk '{print $1 > \"col.txt\"}' a.txt",
    "awk '{printf \"%s\\n\", $0 > \"pf.txt\"}' a.txt", "awk 'BEGIN { system(\"touch sys.txt\") }'", "awk '{ print | \"cat > pipe.txt\" }' a.txt",
    "awk 'BEGIN { \"date\" | getline d; print d }'", "awk -f prog.awk a.txt", "awk -i inplace '{print}' a.txt", "gawk '{print > \"g.txt\"}' a.txt",
    "awk \"$PROG\" a.txt", "awk -F, '{ print $1 > $2 }' data.csv",
  ],
  "editing flags": [
    "sort -o a.txt a.txt", "sort -o sorted.txt b.txt", "sort --output=s2.txt a.txt", "sort -uo s3.txt a.txt", "sort -ro s4.txt a.txt",
    "uniq a.txt uniq.txt", "uniq -c a.txt counts.txt", "yq -i '.a = 2' data.json", "yq --inplace '.a = 3' data.json", "split -l 1 a.txt part_",
    "csplit a.txt 2", "tree -o tree.txt", "xan split -s 1 data.csv", "xan head -o h.csv data.csv", "sqlite3 db.sqlite \"create table t(x)\"",
    "sqlite3 db.sqlite", "sqlite3 -readonly db.sqlite \"select 1; .output o.txt\"", "dd if=a.txt of=dd.txt", "truncate -s 0 a.txt",
    "install -m 644 a.txt inst.txt", "patch -p1 < p.patch", "patch a.txt p.patch", "rsync -a d/ e/", "tar cf t.tar a.txt", "tar -czf t.tgz d",
    "tar xf t.tar", "tar -xzf t.tgz", "tar --extract -f t.tar", "gzip a.txt", "gzip -k b.txt", "gunzip a.txt.gz", "unzip z.zip",
    "zip z.zip a.txt", "bzip2 a.txt", "shred a.txt", "mktemp", "mkfifo fifo", "curl -o page.html https://example.com",
    "curl -X POST -d x=1 https://example.com", "wget https://example.com",
  ],
  "find and xargs": [
    "find . -name '*.txt' -delete", "find d -delete", "find . -name x.txt -exec rm {} \\;", "find . -name '*.txt' -exec rm {} +",
    "find . -type f -exec sh -c 'echo x > {}' \\;", "find . -name '*.txt' -execdir rm {} \\;", "find . -ok rm {} \\;",
    "find . -fprint found.txt", "find . -fls ls.txt", "find . -fprintf fmt.txt '%p\\n'", "find . -name a.txt -exec sed -i s/a/b/ {} \\;",
    "find . -exec mv {} {}.bak \\;", "find . -name '*.txt' $ACTION", "ls | xargs rm", "cat list.txt | xargs rm -f", "echo d | xargs rm -rf",
    "echo a.txt | xargs -I {} cp {} {}.copy", "find . -name '*.txt' | xargs sed -i 's/a/b/'", "find . -print0 | xargs -0 touch",
    "echo a.txt | xargs -n1 -P2 chmod 600", "echo 'rm a.txt' | xargs -I{} sh -c '{}'", "xargs -a list.txt rm",
  ],
  "file commands": [
    "rm a.txt", "rm -f a.txt", "rm -r d", "rm -rf d", "rm -rf .", "rm -rf /workspace", "rm -rf *", "rm -rf .git", "rm .git/HEAD",
    "rmdir d", "unlink a.txt", "mv a.txt moved.txt", "mv -f a.txt b.txt", "mv d e", "cp a.txt copy.txt", "cp -r d e", "cp a.txt .git/x",
    "touch a.txt", "touch brand-new.txt", "touch -c a.txt", "mkdir newdir", "mkdir -p x/y/z", "ln -s a.txt link", "ln a.txt hard",
    "ln -sf b.txt a.txt", "chmod 777 a.txt", "chmod -R 700 d", "chmod +x script.sh", "chown user a.txt", "/bin/rm a.txt",
    "/usr/bin/touch u.txt", "./script.sh",
  ],
  "bash -c, eval, source": [
    "eval 'rm -rf d'", "eval \"echo x > a.txt\"", "eval rm a.txt", "eval \"$CMD\"", "bash -c 'rm -rf d'", "sh -c 'echo x > a.txt'",
    "bash -c \"bash -c 'touch deep.txt'\"", "bash -xc 'rm a.txt'", "bash -c 'eval \"rm a.txt\"'", "bash -c \"$CMD\"",
    "echo 'rm -rf d' | bash", "echo 'echo x > a.txt' | sh", "bash < script.sh", "bash script.sh", "sh ./script.sh", "source script.sh",
    ". ./script.sh", "bash -s < script.sh", "zsh -c 'rm a.txt'", "trap 'rm a.txt' EXIT", "builtin eval 'rm a.txt'",
  ],
  "subshells, functions, aliases": [
    "(rm -rf d)", "( cd d && rm x.txt )", "{ rm a.txt; }", "f() { rm -rf d; }; f", "g() { echo x > a.txt; }; g",
    "function h { touch h.txt; }; h", "ls() { :; }", "shopt -s expand_aliases; alias zap='rm -rf'; zap d", "alias ll='rm -rf d'",
    "true && rm -rf d || rm -rf d", "if [ -f a.txt ]; then rm a.txt; fi", "for f in *.txt; do rm \"$f\"; done",
    "while read f; do rm \"$f\"; done < list.txt", "ls | while read f; do rm \"$f\"; done",
  ],
  "quoted, escaped and computed names": [
    "\"r\"\"m\" -rf d", "\\rm -rf d", "'rm' a.txt", "r\\m a.txt", "\"rm\" a.txt", "r=rm; $r -rf d", "${CMD:-rm} a.txt",
    "$(echo rm) -rf d", "`echo rm` -rf d", "$CMD a.txt", "\"$CMD\" a.txt", "{rm,-rf,d}", "r?m a.txt",
  ],
  wrappers: [
    "command rm -rf d", "env rm -rf d", "env -i FOO=1 rm a.txt", "timeout 5 rm -rf d", "timeout -s KILL 5 touch t.txt", "time rm -rf d",
    "nice rm a.txt", "nice -n 10 touch n.txt", "nohup rm a.txt", "exec rm a.txt", "stdbuf -o0 rm a.txt", "sudo rm a.txt",
    "env -S 'rm a.txt'", "command -p rm a.txt",
  ],
  "data that bash evaluates": [
    "x='a[$(rm a.txt)]'; (( x ))", "echo ${y@P}", "PS4='$(touch ps4.txt)'; set -x; true", "export PROMPT_COMMAND='rm a.txt'",
    "env PAGER='rm a.txt' git log", "GIT_EXTERNAL_DIFF=./evil.sh git diff", "mapfile -C 'rm a.txt' -c 1 arr < a.txt",
    "hash -p /bin/rm ls", "let 'x=$(rm a.txt)'", "declare 'a[$(rm a.txt)]=1'", "read 'a[$(rm a.txt)]' < a.txt",
    "[[ 'a[$(rm a.txt)]' -eq 1 ]]", "printf -v 'a[$(rm a.txt)]' x", "export BASH_ENV=script.sh",
    "declare -a m=($(rm a.txt))", "declare -A m=([$(rm a.txt)]=1)", "a[$(rm a.txt)]=1",
  ],
  git: [
    "git add -A", "git add a.txt", "git commit -am x", "git commit --allow-empty -m x", "git checkout -- a.txt", "git checkout -b new",
    "git switch -c other", "git restore a.txt", "git restore --staged a.txt", "git reset --hard", "git reset HEAD~0", "git stash",
    "git stash -u", "git stash pop", "git stash push -m x", "git tag v9", "git tag -a v9 -m x", "git tag -d v0", "git branch newbranch",
    "git branch -D main", "git branch -m main renamed", "git config user.name Evil", "git config --unset user.name", "git rm a.txt",
    "git rm --cached a.txt", "git mv a.txt z.txt", "git init", "git -C d init", "git gc", "git clean -fd", "git merge x", "git apply p.patch",
    "git cherry-pick HEAD", "git revert --no-edit HEAD", "git rebase main", "git pull", "git push", "git fetch", "git am < p.patch",
    "git format-patch -1", "git update-index --assume-unchanged a.txt", "git notes add -m x", "git worktree add wt",
    "git remote add origin x", "git symbolic-ref HEAD refs/heads/x", "git update-ref refs/heads/x HEAD", "git reflog expire --all",
    "git $SUB", "git \"comm\"\"it\" -m x", "git diff --output=diff.txt", "git log --output=log.txt",
  ],
  "git global options": [
    "git -C . commit -am x", "git -C d add .", "git -c user.name=x add .", "git --no-pager -c core.quotepath=off add -A",
    "git --git-dir=.git --work-tree=. reset --hard", "git -c core.pager='rm a.txt' log", "git -c alias.x='!rm a.txt' x",
    "git -c diff.external=./evil.sh diff", "git -c core.fsmonitor=./evil.sh status", "git -P stash", "git --no-pager tag v8",
  ],
  "package installs": [
    "npm install", "npm i left-pad", "npm ci", "npx create-react-app x", "pnpm add zod", "yarn add zod", "pip install requests",
    "pip3 install -r requirements.txt", "cargo add serde", "go get example.com/x", "apt-get install jq", "bun add zod", "gem install rails",
  ],
  "package managers, writing forms of read-only subcommands": [
    "npm version patch", "npm version", "npm pkg set name=x", "npm pkg delete scripts.test", "npm audit fix", "npm audit --fix",
    "npm config set registry http://127.0.0.1:1", "npm config delete registry", "npm cache clean --force", "npm run build", "npm test",
    "npm exec cowsay", "npm --prefix ls install", "npm -g ls install", "npm ls -- --x", "npm view zod --cache=./npm-cache", "npm i -g zod",
    "npm rebuild", "npm dedupe", "pnpm install", "pnpm build", "pnpm store prune", "pnpm audit --fix", "pnpm config set x y", "yarn",
    "yarn build", "yarn config set x y", "yarn workspaces foreach run build", "bun pm trust --all", "bun pm cache rm", "pip download requests",
    "pip cache purge", "pip3 config set global.x y", "go env -w GOFLAGS=-mod=mod", "cargo build", "gem cleanup", "brew install jq",
    "composer install", "poetry env use python3", "apt install jq", "python3 -m pip install requests", "python -mpip install x",
    "python3 -m venv .venv",
  ],
  "inline code": [
    "perl -e 'unlink \"a.txt\"'", "perl -pi -e 's/a/b/' a.txt",
    "perl -i -pe 's/a/b/' a.txt", "perl -i.bak -pe 's/a/b/' a.txt", "perl -lpi -e 's/a/b/' a.txt", "perl -Ilib -i -pe 's/a/b/' a.txt",
    "perl -0777 -pi -e 's/a/b/' a.txt", "perl -Ilib script.pl", "perl -MFile::Path -e 'rmtree(\"d\")'",
    "ruby -e 'File.delete(\"a.txt\")'", "deno eval \"Deno.removeSync('a.txt')\"", "php -r 'unlink(\"a.txt\");'", "js-exec -e \"1\"",
  ],
  "parse failures (fail closed)": [
    "echo \"unterminated", "if true; then rm a.txt", "coproc rm a.txt", "select x in a; do rm a.txt; done",
  ],
};

/** Common read-only inspection commands: each should pass. */
// prettier-ignore
export const READ_CORPUS: string[] = [
  // listing and reading
  "ls", "ls -la", "ls -R src", "ls -1 | wc -l", "ls -la 2>/dev/null", "cat a.txt", "cat a.txt b.txt", "head -1 a.txt",
  "head -n 20 src/main.ts", "head -c 100 a.txt", "tail -n 1 a.txt", "tail -5 a.txt", "wc -l a.txt", "wc -c *.txt", "nl a.txt",
  "tac a.txt", "rev a.txt", "stat a.txt", "file a.txt", "du -sh .", "tree", "tree -L 2 src", "pwd", "readlink -f a.txt",
  "basename src/main.ts", "dirname src/main.ts", "md5sum a.txt", "sha256sum *.txt", "od -c a.txt | head", "base64 a.txt",
  "strings a.txt", "fold -w 20 a.txt", "column -t data.csv", "paste a.txt b.txt", "cut -d: -f1 a.txt", "cut -c1-5 a.txt",
  "tr a-z A-Z < a.txt", "html-to-markdown page.html",
  // searching
  "grep -rn TODO .", "grep -rn 'TOD[O]' src", "grep -c hello a.txt", "grep -l -r main src", "grep -E 'a|b' a.txt",
  "egrep 'x+' a.txt", "rg TODO", "rg -n main src", "grep foo a.txt 2>&1", "grep -n foo <<< \"foo bar\"",
  "find . -name '*.ts'", "find . -type f -name '*.txt' | sort", "find src -maxdepth 1 -type d", "find . -newer a.txt",
  "find . -name '*.ts' -exec grep -l main {} +", "find . -name '*.txt' -exec wc -l {} \\;", "find . -path ./.git -prune -o -type f -print",
  "find . -size +1k", "find . -name \"$PATTERN\"", "find . -name '*.ts' | xargs grep -n main", "find . -type f | xargs wc -l",
  // text processing to stdout
  "sort a.txt", "sort -u a.txt b.txt", "sort -t, -k2 -n data.csv", "sort -rn a.txt", "sort a.txt | uniq -c | sort -rn | head",
  "uniq -c a.txt", "uniq -d a.txt", "awk '{print $1}' a.txt", "awk -F, '{sum += $2} END {print sum}' data.csv", "awk 'NR==1' a.txt",
  "awk '/hello|world/ {print NR\": \"$0}' a.txt", "awk '{ if ($1 > 3) print $1 }' a.txt", "awk 'length($0) > 10' a.txt",
  "awk '{print ($1 > 2)}' a.txt", "awk -v n=2 'NR <= n' a.txt", "sed -n '1,5p' a.txt", "sed -n '/hello/p' a.txt",
  "sed 's/hello/bye/' a.txt", "sed -e 's/a/b/g' -e 's/c/d/' a.txt", "sed -n '$p' a.txt", "sed '/^$/d' a.txt",
  "sed -E 's/(w)orld/\\1/' a.txt", "sed -n '/start/,/end/p' a.txt", "sed 'y/abc/xyz/' a.txt", "sed -n '/word/p' a.txt",
  "jq . data.json", "jq -r '.a' data.json", "jq '.items[] | select(.x > 1)' data.json", "yq '.name' config.yaml",
  "yq -o json '.' config.yaml", "diff a.txt b.txt", "diff -u a.txt b.txt", "diff <(sort a.txt) <(sort b.txt)",
  "comm -12 <(sort a.txt) <(sort b.txt)", "cat a.txt | grep hello | wc -l", "cat a.txt | sort | uniq",
  // shell constructs
  "echo hello", "echo \"$HOME\"", "printf '%s\\n' a b", "date", "seq 1 10", "expr 1 + 2", "echo $((1 + 2))",
  "echo $(( $(wc -l < a.txt) + 1 ))", "x=$(cat a.txt); echo \"$x\"", "for f in *.txt; do echo \"$f\"; done",
  "for f in $(ls); do wc -l \"$f\"; done", "while read -r l; do echo \"$l\"; done < a.txt", "if [ -f a.txt ]; then echo yes; fi",
  "[[ -d src ]] && echo dir", "test -e a.txt && echo ok", "cat a.txt > /dev/null", "ls nope 2>/dev/null || echo missing",
  "echo err >&2", "echo x > /dev/stderr", "cd src && ls", "cd src; pwd", "which ls", "type cd", "command -v git", "env",
  "printenv HOME", "env | sort", "env LC_ALL=C sort a.txt", "time ls", "timeout 5 cat a.txt", "xargs echo < list.txt",
  "echo a.txt | xargs cat", "bash -c 'ls -la'", "sh -c 'cat a.txt | wc -l'", "eval 'echo hi'", "cat <<EOF\nhello\nEOF",
  "echo x | tee", "echo x | tee /dev/null", "set -e; ls", "export LC_ALL=C; sort a.txt",
  // archives and data, read-only forms
  "sqlite3 -readonly db.sqlite \"select * from t\"", "tar -tf t.tar", "tar tvf t.tar", "gzip -l a.gz", "gzip -c a.txt | wc -c",
  "gunzip -c a.gz", "zcat a.gz", "unzip -l z.zip", "dd if=a.txt bs=1 count=4", "patch --dry-run -p1 < p.patch", "mktemp -u",
  "curl -s https://example.com",
  // git, read-only
  "git status", "git status -s", "git log --oneline", "git log -n 5 --stat", "git log -p -- a.txt", "git log --format='%h %s'",
  "git diff", "git diff --stat", "git diff HEAD~1", "git diff --cached", "git diff --name-only", "git show --stat",
  "git show HEAD:a.txt", "git branch", "git branch -a", "git branch --list 'feat*'", "git branch -vv", "git branch --show-current",
  "git tag", "git tag -l 'v*'", "git rev-parse HEAD", "git rev-parse --abbrev-ref HEAD", "git ls-files", "git blame a.txt",
  "git grep -n TODO", "git stash list", "git stash show", "git config user.name", "git config --get user.email", "git config --list",
  "git -C src log --oneline", "git --no-pager log -1", "git -c color.ui=never diff", "git cat-file -p HEAD", "git remote -v",
  "git shortlog -sn", "git describe --tags", "git reflog", "git ls-tree HEAD",
  // help never runs the command
  "git switch --help", "git commit --help", "git stash -h", "git reset --help",
  // package managers, read-only subcommands
  "npm ls", "npm ls --all --json", "npm list zod", "npm view react version", "npm view zod versions --json", "npm outdated",
  "npm why zod", "npm explain zod", "npm config get registry", "npm config list", "npm pkg get name", "npm audit", "npm --version",
  "npm help install", "npm prefix", "pnpm list", "pnpm ls --depth 0", "pnpm why zod", "pnpm outdated", "yarn why zod",
  "yarn info zod", "yarn list --pattern zod", "pip list", "pip show requests", "pip3 freeze", "cargo search serde", "go version",
  "go env GOPATH", "gem list", "bun outdated", "bun pm ls",
];

export function allWrites(): string[] {
  return Object.values(WRITE_CORPUS).flat();
}
