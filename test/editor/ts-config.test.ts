import { describe, expect, it } from "vitest";
import { parseJsonc, stripJsonc } from "../../lib/editor/jsonc";
import { compilerOptionsFromConfig, DEFAULT_COMPILER_OPTIONS } from "../../lib/editor/ts-config";

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
