import { describe, expect, it } from 'vitest';
import { formatCount, formatNs } from './format';

describe('formatNs', () => {
  it('picks a unit by magnitude', () => {
    expect(formatNs(0)).toBe('0 ns');
    expect(formatNs(999)).toBe('999 ns');
    expect(formatNs(12_500)).toBe('12.5 µs');
    expect(formatNs(3_000_000)).toBe('3.000 ms');
    expect(formatNs(1_234_000_000)).toBe('1.234 s');
  });
  it('shows a dash for nonsense', () => {
    expect(formatNs(-1)).toBe('—');
    expect(formatNs(NaN)).toBe('—');
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(Infinity)).toBe('—');
  });
});
