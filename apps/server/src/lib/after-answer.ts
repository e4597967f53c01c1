/**
 * Work that runs after the answer has gone (docs/decisions/026): a mail whose sending time would
 * otherwise tell whether an address has an account. Failures are logged, never thrown at a caller;
 * `settled` waits for everything started (the app waits on close; tests wait before reading mail).
 */
export class AfterAnswer {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly onError: (err: unknown, what: string) => void = () => {}) {}

  run(what: string, task: () => Promise<unknown>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (err: unknown) => this.onError(err, what),
      )
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Work started and not yet done. */
  get pending(): number {
    return this.running.size;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
