// Builds a service for a unit test with every dependency mocked, in one line (immich's
// newTestService, shaped for Nest's own metadata):
//
//   const { sut, mock } = newTestService(CreditsService, { provide: MONTHLY_CREDITS_FOR_TIER, useValue: () => 20 });
//   mock(CreditsRepository).balanceOf.mockResolvedValue(...);
//
// Each constructor parameter whose type is a class becomes an object with a jest.fn() for every
// method of that class (its prototype chain included); `mock(Class)` hands it back typed. A
// parameter injected by token (`@Inject(TOKEN)`, typed by an interface or a function type) gets the
// value given for that token, or an empty object.
import 'reflect-metadata';

type Class<T = unknown> = abstract new (...args: any[]) => T;

export interface Override {
  provide: unknown;
  useValue: unknown;
}

/** An object with a jest.fn() in place of every method of the class (getters and fields are left out). */
export function automock<T>(type: Class<T>): jest.Mocked<T> {
  const mock: Record<string, jest.Mock> = {};
  for (let proto = type.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || key in mock) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (typeof descriptor?.value === 'function') mock[key] = jest.fn();
    }
  }
  return mock as unknown as jest.Mocked<T>;
}

function isMockableClass(type: unknown): type is Class {
  return typeof type === 'function' && type !== Object && type !== Function && type !== Promise && Boolean(type.prototype);
}

export function newTestService<T>(Service: Class<T>, ...overrides: Override[]) {
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', Service) ?? [];
  // Nest records `@Inject(token)` parameters here as { index, param: token }.
  const tokens: Array<{ index: number; param: unknown }> = Reflect.getMetadata('self:paramtypes', Service) ?? [];
  const tokenAt = new Map(tokens.map((t) => [t.index, t.param]));

  const deps = types.map((type, index) => {
    const token = tokenAt.get(index) ?? type;
    const override = overrides.find((o) => o.provide === token || o.provide === type);
    if (override) return override.useValue;
    return isMockableClass(token) ? automock(token) : {};
  });
  const sut = new (Service as unknown as new (...args: unknown[]) => T)(...deps);

  /** The mock handed to the constructor for this class. */
  function mock<D>(type: Class<D>): jest.Mocked<D> {
    const index = types.findIndex((t, i) => (tokenAt.get(i) ?? t) === type);
    if (index < 0) throw new Error(`${Service.name} takes no ${type.name}`);
    return deps[index] as jest.Mocked<D>;
  }

  return { sut, mock, deps };
}
