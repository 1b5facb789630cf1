/**
 * Pages of a user's gallery (GET /api/generations) kept by this API process, keyed by the account's
 * `generations_version`: the database bumps it whenever one of the account's completed generations
 * appears, changes or goes (a trigger), and the session check reads it on every request. A page is
 * therefore reused only while nothing it shows has changed, on whichever process changed it.
 *
 * A page holds signed result links, so it is also dropped after `maxAgeMs`, well before its links
 * expire. Identical requests made while a page is being built share that one build. The cache
 * holds at most `maxEntries` pages, the least recently used going first.
 */
export class GalleryPageCache<T> {
  private readonly pages = new Map<string, { builtAt: number; page: Promise<T> }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page for `key` built at `version`: a kept one while it is young enough, else `build()`'s. */
  get(userId: string, version: string, query: string, build: () => Promise<T>): Promise<T> {
    const key = `${userId} ${version} ${query}`;
    const kept = this.pages.get(key);
    this.pages.delete(key); // re-inserted below: the Map's order is the order of use
    if (kept && this.now() - kept.builtAt < this.maxAgeMs) {
      this.pages.set(key, kept);
      return kept.page;
    }
    const entry = { builtAt: this.now(), page: build() };
    this.pages.set(key, entry);
    // a failed build is not kept
    entry.page.catch(() => {
      if (this.pages.get(key) === entry) this.pages.delete(key);
    });
    while (this.pages.size > this.maxEntries) this.pages.delete(this.pages.keys().next().value!);
    return entry.page;
  }

  get size(): number {
    return this.pages.size;
  }
}
