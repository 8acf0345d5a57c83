import { describe, expect, it } from 'vitest';
import { actionsFor, describeElement, optionTexts, parsePageState, screenshotUrl } from './page-state';

describe('page state', () => {
  it('offers the actions that fit an element', () => {
    expect(actionsFor({ index: 1, tag: 'button', role: 'button', name: 'Go' })).toEqual(['click']);
    expect(actionsFor({ index: 2, tag: 'input', role: 'textbox', name: 'Name', attributes: { type: 'text' } })).toEqual(
      ['click', 'input'],
    );
    expect(actionsFor({ index: 3, tag: 'textarea', role: null, name: '' })).toEqual(['click', 'input']);
    expect(actionsFor({ index: 4, tag: 'select', role: 'combobox', name: 'Colour' })).toEqual([
      'click',
      'select_dropdown',
    ]);
    expect(actionsFor({ index: 8, tag: 'div', role: 'listbox', name: '' })).toEqual(['click', 'select_dropdown']);
    expect(actionsFor({ index: 5, tag: 'input', role: null, name: '', attributes: { type: 'file' } })).toEqual([
      'click',
      'upload_file',
    ]);
    expect(actionsFor({ index: 6, tag: 'div', role: null, name: '', attributes: { contenteditable: 'true' } })).toEqual(
      ['click', 'input'],
    );
    expect(
      actionsFor({ index: 7, tag: 'input', role: 'checkbox', name: '', attributes: { type: 'checkbox' } }),
    ).toEqual(['click']);
  });

  it('reads the state result loosely and describes elements in one line', () => {
    const state = parsePageState({
      url: 'u',
      title: 't',
      screenshot: null,
      elements: [{ index: 1, tag: 'a', role: 'link', name: 'Home', attributes: {} }],
      extra: 1,
    });
    expect(state?.elements?.[0]?.name).toBe('Home');
    expect(parsePageState({ title: 'no url' })).toBeUndefined();
    expect(describeElement({ index: 0, tag: 'a', role: 'link', name: 'Home' })).toBe('<a> link "Home"');
    expect(describeElement({ index: 0, tag: 'button', role: 'button', name: '' })).toBe('<button>');
  });

  it('reads dropdown options and makes screenshot URLs', () => {
    expect(optionTexts({ options: ['a', { text: 'b' }, { label: 'c' }, 4] })).toEqual(['a', 'b', 'c']);
    expect(optionTexts(null)).toEqual([]);
    expect(screenshotUrl('/9j/abc')).toBe('data:image/jpeg;base64,/9j/abc');
    expect(screenshotUrl('iVBORabc')).toBe('data:image/png;base64,iVBORabc');
  });
});
