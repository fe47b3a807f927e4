/**
 * Imported first by the sandbox runtime: zod compiles fast paths with the Function constructor,
 * which the sandbox takes away, and it decides when a schema is created (at import time).
 */
import { z } from "zod";

z.config({ jitless: true });
