/**
 * Whether the main pointer can hover. A touch screen cannot: a tap there opens a hover tooltip
 * (the browser's emulated mouse events count as a mouse) that stays until the next tap
 * elsewhere, so tooltips open on hover only where hovering exists.
 */
export const CAN_HOVER = typeof matchMedia !== 'function' || matchMedia('(hover: hover)').matches;
