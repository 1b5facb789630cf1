import { GalleryPageCache } from './gallery-page-cache';

describe('GalleryPageCache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = 1_000));

  it('reuses a page while the version is the same and it is young; builds again on a new version or once old', async () => {
    const cache = new GalleryPageCache<string>(60_000, 10, now);
    let builds = 0;
    const build = async () => `page ${++builds}`;
    expect(await cache.get('u1', '7', '1 24', build)).toBe('page 1');
    expect(await cache.get('u1', '7', '1 24', build)).toBe('page 1');
    expect(await cache.get('u1', '8', '1 24', build)).toBe('page 2'); // the gallery changed
    expect(await cache.get('u1', '8', '2 24', build)).toBe('page 3'); // another page
    expect(await cache.get('u2', '8', '2 24', build)).toBe('page 4'); // another person
    clock += 60_000;
    expect(await cache.get('u1', '8', '1 24', build)).toBe('page 5'); // its links have aged
  });

  it('shares one build between identical requests, and keeps no failed build', async () => {
    const cache = new GalleryPageCache<string>(60_000, 10, now);
    let builds = 0;
    let release!: () => void;
    const slow = () => {
      builds++;
      return new Promise<string>((resolve) => (release = () => resolve('page')));
    };
    const both = Promise.all([cache.get('u1', '1', 'q', slow), cache.get('u1', '1', 'q', slow)]);
    release();
    expect(await both).toEqual(['page', 'page']);
    expect(builds).toBe(1);

    await expect(cache.get('u1', '2', 'q', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get('u1', '2', 'q', async () => 'rebuilt')).toBe('rebuilt');
  });

  it('holds at most its limit, dropping the least recently used', async () => {
    const cache = new GalleryPageCache<string>(60_000, 2, now);
    await cache.get('a', '1', 'q', async () => 'a1');
    await cache.get('b', '1', 'q', async () => 'b1');
    await cache.get('a', '1', 'q', async () => 'a2'); // used again: b is now the oldest
    await cache.get('c', '1', 'q', async () => 'c1');
    expect(cache.size).toBe(2);
    expect(await cache.get('a', '1', 'q', async () => 'a3')).toBe('a1');
    expect(await cache.get('b', '1', 'q', async () => 'b2')).toBe('b2');
  });
});
