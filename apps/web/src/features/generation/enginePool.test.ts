import { afterEach, describe, expect, it } from 'vitest';
import { enginePoolSize, POOL_WORKERS_KEY } from './enginePool.ts';

function withCores(cores: number): void {
  Object.defineProperty(navigator, 'hardwareConcurrency', { value: cores, configurable: true });
}

afterEach(() => {
  localStorage.removeItem(POOL_WORKERS_KEY);
});

describe('the pool of engine workers', () => {
  it('is one worker unless the browser asks for more, whatever the cores', () => {
    withCores(8);
    expect(enginePoolSize()).toBe(1);
    localStorage.setItem(POOL_WORKERS_KEY, 'many');
    expect(enginePoolSize()).toBe(1);
  });

  it('takes the size the browser sets, at most 8', () => {
    withCores(2);
    localStorage.setItem(POOL_WORKERS_KEY, '3');
    expect(enginePoolSize()).toBe(3);
    localStorage.setItem(POOL_WORKERS_KEY, '20');
    expect(enginePoolSize()).toBe(8);
  });

  it('is sized to the machine when the browser sets 0: a core left to the page, at most 4', () => {
    localStorage.setItem(POOL_WORKERS_KEY, '0');
    withCores(8);
    expect(enginePoolSize()).toBe(4);
    withCores(3);
    expect(enginePoolSize()).toBe(2);
    withCores(1);
    expect(enginePoolSize()).toBe(1);
  });
});
