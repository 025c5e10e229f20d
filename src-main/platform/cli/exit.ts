/** Ends a command-line run with `message` on stderr: code 2, the call was wrong; 1, it could not be done. */
export function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Runs a command's `main` to its end, as every CLI entry does: a wrong option is said with the
 * usage (exit 2), an error of a `told` class (one the person can act on) by its message alone
 * (exit 1), anything else with its stack (exit 1).
 */
export function runCommand(main: () => Promise<void>, usage: string, told: ErrorClass[] = []): void {
  main().catch((err: unknown) => {
    if (told.some((E) => err instanceof E)) fail((err as Error).message, 1);
    if (err instanceof Error && /ERR_PARSE_ARGS/.test((err as NodeJS.ErrnoException).code ?? '')) fail(`${err.message}\n\n${usage}`);
    fail(err instanceof Error ? (err.stack ?? err.message) : String(err), 1);
  });
}
