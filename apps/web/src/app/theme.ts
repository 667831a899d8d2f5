import {
  createTheme,
  PasswordInput,
  TextInput,
  Tooltip,
  type MantineColorsTuple,
} from '@mantine/core';
import { CAN_HOVER } from '../components/pointer.ts';

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
      defaultProps: { events: { hover: CAN_HOVER, focus: false, touch: false } },
    }),
  },
});
