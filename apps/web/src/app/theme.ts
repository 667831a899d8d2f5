import {
  Anchor,
  createTheme,
  darken,
  parseThemeColor,
  PasswordInput,
  TextInput,
  type BadgeFactory,
  type CSSVariablesResolver,
  type ExtendComponent,
  type MantineColorsTuple,
  type ModalFactory,
  type TooltipFactory,
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

/** The muted grey of hints, counters and footer links: 6:1 on white, over 5:1 on light tints. */
const DIMMED = '#5c636e';

/** The Mantine theme: one brand blue, system fonts, calm radii. */
export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Required fields keep `required`, without a '*' that would become part of the field's name.
    TextInput: TextInput.extend({ defaultProps: { withAsterisk: false } }),
    // The eye that shows the password is a Tab stop too.
    PasswordInput: PasswordInput.extend({
      defaultProps: { withAsterisk: false, visibilityToggleFocusable: true },
    }),
    // Written out rather than through Tooltip.extend and the like, which would bring those
    // components' code (and the libraries they use) into the public pages' first chunk.
    Tooltip: {
      defaultProps: { events: { hover: CAN_HOVER, focus: false, touch: false } },
    } satisfies ExtendComponent<TooltipFactory>,
    // Links are told apart from the text around them by more than their colour.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Every dialog's X has a name; a dialog may name it more precisely.
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
    } satisfies ExtendComponent<ModalFactory>,
    // A dialog's title bar is a plain box: as Mantine's <header> it made a second banner
    // landmark beside the app's top bar while the dialog was open.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    // A light badge's text: its colour's darkest shade, darker still, for 4.5:1 on its tint.
    Badge: {
      vars: (t, props) => {
        const parsed = parseThemeColor({ color: props.color ?? t.primaryColor, theme: t });
        return props.variant === 'light' && parsed.isThemeColor && parsed.color
          ? { root: { '--badge-color': darken(t.colors[parsed.color]![9], 0.3) } }
          : { root: {} };
      },
    } satisfies ExtendComponent<BadgeFactory>,
  },
});

/** The theme's CSS variables beyond Mantine's defaults: a readable dimmed text colour. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': DIMMED },
  dark: {},
});
