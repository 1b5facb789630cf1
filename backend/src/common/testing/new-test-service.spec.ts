import { Inject, Injectable } from '@nestjs/common';
import { newTestService } from '../../../test/helpers/new-test-service';

const PRICE = Symbol('PRICE');

class BaseRepository {
  count(): Promise<number> {
    throw new Error('the real repository was called');
  }
}

@Injectable()
class ItemsRepository extends BaseRepository {
  find(id: string): Promise<string | null> {
    throw new Error(`the real repository was called for ${id}`);
  }
}

@Injectable()
class Shop {
  constructor(
    private readonly items: ItemsRepository,
    @Inject(PRICE) private readonly price: (id: string) => number,
  ) {}

  async quote(id: string): Promise<string> {
    const item = await this.items.find(id);
    if (!item) return `${id} not found among ${await this.items.count()}`;
    return `${item}: ${this.price(id)}`;
  }
}

describe('newTestService', () => {
  it('mocks every method of each class dependency, inherited ones included', async () => {
    const { sut, mock } = newTestService(Shop, { provide: PRICE, useValue: () => 7 });
    mock(ItemsRepository).find.mockResolvedValueOnce('hat').mockResolvedValueOnce(null);
    mock(ItemsRepository).count.mockResolvedValue(3);
    expect(await sut.quote('h1')).toBe('hat: 7');
    expect(await sut.quote('h2')).toBe('h2 not found among 3');
    expect(mock(ItemsRepository).find).toHaveBeenCalledWith('h2');
  });

  it('refuses to hand back a mock the service does not take', () => {
    const { mock } = newTestService(Shop);
    expect(() => mock(BaseRepository)).toThrow('Shop takes no BaseRepository');
  });
});
