import { describe, expect, it } from "vitest";
import { parseJsonc, stripJsonc } from "../../lib/editor/jsonc";
import { compilerOptionsFromConfig, DEFAULT_COMPILER_OPTIONS, loadCompilerOptions } from "../../lib/editor/ts-config";

describe("JSON with comments", () => {
  it("reads comments and trailing commas the way tsconfig.json is written", () => {
    const text = `{
      // the compiler
      "compilerOptions": {
        "target": "ES2022", /* modern */
        "paths": { "@/*": ["./src/*",], },
      },
    }`;
    expect(parseJsonc(text)).toEqual({ ok: true, value: { compilerOptions: { target: "ES2022", paths: { "@/*": ["./src/*"] } } } });
  });

  it("leaves comment-like text and commas inside strings alone", () => {
    const text = `{"a": "http://x/*y*/", "b": "q\\" // not a comment", "c": ",]"}`;
    expect(JSON.parse(stripJsonc(text))).toEqual({ a: "http://x/*y*/", b: 'q" // not a comment', c: ",]" });
  });

  it("says which line is wrong instead of throwing", () => {
    const r = parseJsonc(`{\n  "a": 1,\n  "b" 2\n}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/line 3/);
  });

  it("treats an empty file as an empty object", () => {
    expect(parseJsonc("  // nothing\n")).toEqual({ ok: true, value: {} });
  });
});

describe("compiler options from tsconfig.json / jsconfig.json", () => {
  it("maps enum names to TypeScript's numbers, lib names to lib files, and paths to worker file names", () => {
    const { options, errors } = compilerOptionsFromConfig(
      `{ "compilerOptions": { "target": "es2022", "module": "NodeNext", "moduleResolution": "nodenext", "jsx": "react-jsx",
         "lib": ["ES2022", "DOM"], "strict": true, "baseUrl": ".", "paths": { "@/*": ["src/*"] }, "typeRoots": ["./types"], "incremental": true } }`,
      "app/tsconfig.json",
    );
    expect(errors).toEqual([]);
    expect(options).toMatchObject({
      target: 9,
      module: 199,
      moduleResolution: 99,
      jsx: 4,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      strict: true,
      baseUrl: "file:///app",
      paths: { "@/*": ["src/*"] },
      typeRoots: ["file:///app/types"],
      allowNonTsExtensions: true,
    });
    expect(options).not.toHaveProperty("incremental");
  });

  it("gives paths without baseUrl the config's folder as their base", () => {
    const { options } = compilerOptionsFromConfig(`{ "compilerOptions": { "paths": { "~/*": ["./lib/*"] } } }`, "tsconfig.json");
    expect(options.baseUrl).toBe("file:///");
  });

  it("lets TypeScript pair the resolution with a module kind given alone", () => {
    const { options } = compilerOptionsFromConfig(`{ "compilerOptions": { "module": "commonjs" } }`, "tsconfig.json");
    expect(options.module).toBe(1);
    expect(options).not.toHaveProperty("moduleResolution");
  });

  it("reports what it does not understand and keeps the defaults for it", () => {
    const bad = compilerOptionsFromConfig(`{ "compilerOptions": { "target": "es1999" }, "extends": "./base.json" }`, "tsconfig.json");
    expect(bad.options).not.toHaveProperty("target");
    expect(bad.errors).toEqual([expect.stringMatching(/extends/), expect.stringMatching(/unknown target "es1999"/)]);
    const broken = compilerOptionsFromConfig(`{ "compilerOptions": { `, "tsconfig.json");
    expect(broken.options).toEqual(DEFAULT_COMPILER_OPTIONS);
    expect(broken.errors[0]).toMatch(/^tsconfig.json: /);
  });

  it("checks JavaScript in a jsconfig project only when asked", () => {
    expect(compilerOptionsFromConfig(`{}`, "jsconfig.json").options).toMatchObject({ allowJs: true, checkJs: false });
    expect(compilerOptionsFromConfig(`{ "compilerOptions": { "checkJs": true } }`, "jsconfig.json").options).toMatchObject({ checkJs: true });
  });
});

describe("extends", () => {
  const files: Record<string, string> = {
    "tsconfig.json": `{ "extends": "./config/base.json", "compilerOptions": { "target": "es2022", "strict": false } }`,
    // a base in a subdirectory: its paths are from its own directory
    "config/base.json": `{ "extends": "@tsconfig/strictest", "compilerOptions": { "strict": true, "baseUrl": "..", "paths": { "@app/*": ["src/*"] }, "target": "es2017", "jsx": "react-jsx" } }`,
    "node_modules/@tsconfig/strictest/tsconfig.json": `{ "compilerOptions": { "noUncheckedIndexedAccess": true, "strict": true, "module": "nodenext" } }`,
    "a/tsconfig.json": `{ "extends": ["../config/paths-only.json", "./local"], "compilerOptions": {} }`,
    "config/paths-only.json": `{ "compilerOptions": { "paths": { "~/*": ["./*"] } } }`,
    "a/local.json": `{ "compilerOptions": { "checkJs": true } }`,
    "loop/tsconfig.json": `{ "extends": "./other.json" }`,
    "loop/other.json": `{ "extends": "./tsconfig.json", "compilerOptions": { "strict": true } }`,
    "missing/tsconfig.json": `{ "extends": "./nope.json", "compilerOptions": { "strict": true } }`,
  };
  const read = async (p: string) => files[p] ?? null;

  it("follows a chain through a sub-directory and a package in node_modules: later files win key by key, each file's paths from its own directory", async () => {
    const r = await loadCompilerOptions("tsconfig.json", read);
    expect(r.errors).toEqual([]);
    expect(r.files).toEqual(["tsconfig.json", "config/base.json", "node_modules/@tsconfig/strictest/tsconfig.json"]);
    expect(r.options).toMatchObject({
      target: 9, // es2022 from tsconfig.json over es2017 from the base
      strict: false,
      noUncheckedIndexedAccess: true,
      module: 199,
      jsx: 4,
      baseUrl: "file:///", // ".." from config/
      paths: { "@app/*": ["src/*"] },
    });
    // module named in the chain without a resolution: TypeScript's pairing, not our default
    expect(r.options).not.toHaveProperty("moduleResolution");
  });

  it("a list of bases, in order; paths without baseUrl are from the file that gives them", async () => {
    const r = await loadCompilerOptions("a/tsconfig.json", read);
    expect(r.errors).toEqual([]);
    expect(r.options).toMatchObject({ checkJs: true, paths: { "~/*": ["./*"] }, baseUrl: "file:///config" });
  });

  it("says so for a circle and for a missing base, and keeps what it could read", async () => {
    const loop = await loadCompilerOptions("loop/tsconfig.json", read);
    expect(loop.errors).toEqual([expect.stringMatching(/goes round in a circle \(loop\/tsconfig.json → loop\/other.json → loop\/tsconfig.json\)/)]);
    expect(loop.options).toMatchObject({ strict: true });
    const missing = await loadCompilerOptions("missing/tsconfig.json", read);
    expect(missing.errors).toEqual(["missing/tsconfig.json: the config it extends, missing/nope.json, was not found"]);
    expect(missing.options).toMatchObject({ strict: true });
    expect(missing.files).toContain("missing/nope.json");
  });
});
