/** Runs async tasks one at a time per key (one git operation per repository at a time). */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Run `task` after every task queued earlier for `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    });
    return result;
  }
}
