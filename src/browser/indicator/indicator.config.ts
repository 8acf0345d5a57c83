import { z } from 'zod';

export const INDICATOR_CONFIG = {
  control_indicator: z
    .boolean()
    .default(true)
    .describe(
      'Draw a thin border and a badge with a Stop button in every controlled tab, in a layer of its own the page cannot style or click',
    ),
};
