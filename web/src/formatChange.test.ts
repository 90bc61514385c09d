import { describe, expect, it } from 'vitest';
import { formatChange } from './format';

describe('formatChange', () => {
  it('a change that rounds to nothing reads 0.0%, without a sign', () => {
    expect(formatChange(3.0333, 3.0339)).toBe('0.0%');
    expect(formatChange(3.0345, 3.0339)).toBe('0.0%');
    expect(formatChange(16_126, 31_962)).toBe('-49.5%');
    expect(formatChange(88_088, 42_889)).toBe('+105.4%');
  });
});
