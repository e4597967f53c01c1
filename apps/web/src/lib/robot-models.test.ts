import { describe, expect, it } from 'vitest';
import { robotImage } from './robot-models';

describe('robotImage', () => {
  it.each([
    ['Tiago++', '/images/robots/tiago-plus-plus.svg'],
    ['Tiago_Steel', '/images/robots/tiago-steel.svg'],
    ['iCub', '/images/robots/icub.svg'],
    ['ICUB', '/images/robots/icub.svg'],
    ['Nao', '/images/robots/nao.svg'],
    ['Mystery', '/images/robots/generic.svg'],
    ['', '/images/robots/generic.svg'],
    [undefined, '/images/robots/generic.svg'],
  ])('image of %s is %s', (model, path) => {
    expect(robotImage(model)).toBe(path);
  });
});
