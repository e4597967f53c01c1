import { describe, expect, it } from 'vitest';
import { displayModel, robotImage } from './robot-models';

describe('displayModel', () => {
  it.each([
    ['Tiago_Steel', 'Tiago', 'Steel'],
    ['Tiago_Titanium', 'Tiago', 'Titanium'],
    ['Tiago++', 'Tiago', '++'],
    ['Artus_Hand', 'Artus Hand', undefined],
    ['Tiago', 'Tiago', undefined],
    ['Pepper', 'Pepper', undefined],
    ['Unknown_Bot', 'Unknown_Bot', undefined],
  ])('%s -> %s %s', (raw, model, version) => {
    expect(displayModel(raw)).toEqual(version === undefined ? { model } : { model, version });
  });
});

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
