import { describe, expect, it } from 'vitest';
import { errorIdOf, errorMessageOf } from './errors-details';

describe('errorMessageOf', () => {
  it.each([
    { name: 'Error', error: new Error('boom'), expected: 'boom' },
    { name: 'empty Error', error: new Error(''), expected: null },
    { name: 'string', error: 'bad thing', expected: 'bad thing' },
    { name: 'object with message', error: { message: 'm' }, expected: 'm' },
    { name: 'contract error body', error: { Success: false, Code: 26, Description: 'd' }, expected: 'd' },
    { name: 'number', error: 42, expected: null },
    { name: 'null', error: null, expected: null },
    { name: 'undefined', error: undefined, expected: null },
  ])('$name', ({ error, expected }) => {
    expect(errorMessageOf(error)).toBe(expected);
  });
});

describe('errorIdOf', () => {
  it.each([
    { name: 'plain Error', error: new Error('x'), expected: null },
    { name: 'errorId', error: Object.assign(new Error('x'), { errorId: 'abc123' }), expected: 'abc123' },
    { name: 'eventId', error: { eventId: 'evt-1' }, expected: 'evt-1' },
    { name: 'numeric id', error: { errorId: 7 }, expected: '7' },
    { name: 'blank id', error: { errorId: '  ' }, expected: null },
    { name: 'string error', error: 'x', expected: null },
    { name: 'null', error: null, expected: null },
  ])('$name', ({ error, expected }) => {
    expect(errorIdOf(error)).toBe(expected);
  });
});
