// Types of scripts/build-serve.mjs for the tests and benches that use it.
export declare const ROOT: string;
export declare const SERVE_OUT: string;
export declare const ENTRIES: Record<string, string>;
export declare const WORKERS: Record<string, string>;
export declare const EXTERNAL: string[];
/** Why the bundle in `out` must be (re)built, or null when it is up to date. */
export declare function staleness(out?: string): string | null;
export declare function buildServe(out?: string): Promise<void>;
/** Builds the bundle if it is stale (one builder at a time); resolves with whether this call built it. */
export declare function ensureServeBuilt(opts?: { out?: string; force?: boolean; note?: (line: string) => void }): Promise<boolean>;
