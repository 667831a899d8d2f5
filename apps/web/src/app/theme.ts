import {
  createTheme,
  PasswordInput,
  TextInput,
  Tooltip,
  type MantineColorsTuple,
} from '@mantine/core';

const brand: MantineColorsTuple = [
  '#eaf1fd',
  '#d4e2fb',
  '#a6c3f5',
  '#76a3ef',
  '#4d87ea',
  '#3476e6',
  '#1c5fd4',
  '#154fb3',
  '#0f4297',
  '#08357c',
];

/**
 * Whether the main pointer can hover. A touch screen cannot: a tap there opens a hover tooltip
 * (the browser's emulated mouse events count as a mouse) that stays until the next tap elsewhere.
 */
const canHover = typeof matchMedia !== 'function' || matchMedia('(hover: hover)').matches;

/** The Mantine theme: one brand blue, system fonts, calm radii. */
export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  // Required fields keep `required`, without a '*' that would become part of the field's name.
  components: {
    TextInput: TextInput.extend({ defaultProps: { withAsterisk: false } }),
    PasswordInput: PasswordInput.extend({ defaultProps: { withAsterisk: false } }),
    Tooltip: Tooltip.extend({
      defaultProps: { events: { hover: canHover, focus: false, touch: false } },
    }),
  },
});
