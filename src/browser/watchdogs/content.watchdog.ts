import { TabpilotError } from '../../shared/errors';
import { describeException } from '../../cdp/errors';
import { defineWatchdog } from '../define-watchdog';
import {
  EvaluateJavaScriptEvent,
  ExtractContentEvent,
  FindElementsEvent,
  SearchPageEvent,
} from '../../protocol/events/content.events';

const MAX_VALUE_CHARS = 20_000;

/**
 * Reading the page without a model (markdown, text search, CSS queries) and, when the config allows it,
 * running a script in the page's own world.
 */
export const contentWatchdog = defineWatchdog({
  name: 'content',
  listensTo: [ExtractContentEvent, SearchPageEvent, FindElementsEvent, EvaluateJavaScriptEvent],
  emits: [],
  setup: (ctx) => ({
    ExtractContentEvent: async (event) => {
      const { target_id, query, extract_links, extract_images, start_from_char, max_chars } = event.payload;
      const content = await ctx.session.dom.markdown(target_id, {
        extractLinks: extract_links,
        extractImages: extract_images,
        startFromChar: start_from_char,
        maxChars: max_chars,
      });
      return query === undefined ? content : { query, ...content };
    },
    SearchPageEvent: async (event) => {
      const { target_id, pattern, regex, case_sensitive, context_chars, css_scope, max_results } = event.payload;
      return ctx.session.dom.searchPage(target_id, {
        pattern,
        regex,
        caseSensitive: case_sensitive,
        contextChars: context_chars,
        cssScope: css_scope ?? null,
        maxResults: max_results,
      });
    },
    FindElementsEvent: async (event) => {
      const { target_id, selector, attributes, max_results, include_text } = event.payload;
      const found = await ctx.session.dom.findElements(target_id, {
        selector,
        attributes,
        maxResults: max_results,
        includeText: include_text,
      });
      return {
        total: found.total,
        // The in-world id is how the page names the element to tabpilot; clients know it by its index.
        elements: found.elements.map(({ id: _inWorldId, ...element }) => element),
      };
    },
    EvaluateJavaScriptEvent: async (event) => {
      if (!ctx.session.config.allow_evaluate) {
        throw new TabpilotError(
          'FORBIDDEN',
          'evaluate is off: set allow_evaluate in the config to let clients run scripts in pages',
        );
      }
      const session = ctx.session.targets.requireSession(event.payload.target_id);
      const response = await session.send('Runtime.evaluate', {
        expression: event.payload.code,
        awaitPromise: true,
        returnByValue: true,
        userGesture: true,
        replMode: true,
      });
      if (response.exceptionDetails !== undefined) {
        throw new TabpilotError('INVALID_PARAMS', `The script threw: ${describeException(response.exceptionDetails)}`);
      }
      const value: unknown =
        response.result.value ?? (response.result.type === 'undefined' ? null : response.result.description);
      const text = JSON.stringify(value) ?? 'null';
      if (text.length > MAX_VALUE_CHARS) {
        return { value: `${text.slice(0, MAX_VALUE_CHARS)}... (${text.length} characters, truncated)` };
      }
      return { value };
    },
  }),
});
