import { describe, expect, it } from 'vitest';
import { withoutGeneration } from './generations-queries';
import type { GenerationPage } from './generation-api';
import type { InfiniteData } from '@tanstack/react-query';

/** Two pages of a list, as the API answers them: ids only matter here. */
function list(ids: string[][], total: number): InfiniteData<GenerationPage> {
  return {
    pageParams: ids.map((_, i) => i + 1),
    pages: ids.map((page, i) => ({
      items: page.map((id) => ({ id }) as GenerationPage['items'][number]),
      page: i + 1,
      page_size: 2,
      total,
    })),
  };
}

describe('a deleted generation leaves the lists held in the browser', () => {
  it('goes from the page that held it, and every page counts one fewer', () => {
    const after = withoutGeneration(list([['a', 'b'], ['c']], 3), 'b');
    expect(after.pages.map((p) => p.items.map((item) => item.id))).toEqual([['a'], ['c']]);
    expect(after.pages.map((p) => p.total)).toEqual([2, 2]);
    expect(after.pageParams).toEqual([1, 2]);
  });

  it('leaves a list that did not hold it as it was (another category)', () => {
    const before = list([['a', 'b']], 2);
    expect(withoutGeneration(before, 'z')).toBe(before);
  });
});
