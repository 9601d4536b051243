// An error the CLI reports as `error: <message>` and `fix: <fix>` before exiting non-zero.
export class CliError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
