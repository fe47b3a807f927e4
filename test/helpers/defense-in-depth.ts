/**
 * Whether the shells made by unit tests turn on just-bash's defense-in-depth box. The browser
 * ships it on, so the shell and agent suites run twice (see vitest.config.ts): once with it
 * off, once with TABULA_TEST_DEFENSE_IN_DEPTH=1. Under Node the box really patches the globals
 * (best effort on Node 20, which lacks module.registerHooks); in just-bash's browser bundle it
 * is a no-op, so the Node run is the stricter of the two.
 */
export const testDefenseInDepth: boolean = process.env.TABULA_TEST_DEFENSE_IN_DEPTH === "1";
