/**
 * Common web pictograms the offline engine recognises by shape (ADR 063): each concept is drawn by
 * an open icon set in two styles, Lucide's outlines (ISC) and Material Symbols' outlined and filled
 * glyphs (Apache-2.0), so a site's own icon in either style finds its concept. `name` is what the
 * picture says where it labels something ("Telephone" beside a number); `purpose` is what a link or
 * button made of it does ("Open menu"), which is what its alt must say (W3C functional images).
 *
 * Only concepts whose meaning does not depend on the site are listed: a heart may be "like" or
 * "favourite", a plus "add" or "zoom in", so they are left to the page and a person.
 */
export interface PictogramConcept {
  id: string;
  name: string;
  purpose: string;
  /** Lucide file names (`lucide-static/icons/<name>.svg`). */
  lucide: string[];
  /** Material Symbols names; each is indexed outlined and filled (`<name>.svg`, `<name>-fill.svg`). */
  material: string[];
}

export const pictogramConcepts: readonly PictogramConcept[] = [
  { id: 'home', name: 'Home', purpose: 'Home', lucide: ['house'], material: ['home'] },
  { id: 'search', name: 'Search', purpose: 'Search', lucide: ['search'], material: ['search'] },
  { id: 'menu', name: 'Menu', purpose: 'Open menu', lucide: ['menu'], material: ['menu'] },
  {
    id: 'cart',
    name: 'Shopping cart',
    purpose: 'Shopping cart',
    lucide: ['shopping-cart'],
    material: ['shopping_cart'],
  },
  { id: 'close', name: 'Close', purpose: 'Close', lucide: ['x'], material: ['close'] },
  { id: 'phone', name: 'Telephone', purpose: 'Call', lucide: ['phone'], material: ['call'] },
  { id: 'fax', name: 'Fax', purpose: 'Fax', lucide: [], material: ['fax'] },
  { id: 'mail', name: 'Email', purpose: 'Email', lucide: ['mail'], material: ['mail'] },
  { id: 'download', name: 'Download', purpose: 'Download', lucide: ['download'], material: ['download'] },
  { id: 'print', name: 'Print', purpose: 'Print', lucide: ['printer'], material: ['print'] },
  { id: 'play', name: 'Play', purpose: 'Play', lucide: ['play'], material: ['play_arrow'] },
  { id: 'pause', name: 'Pause', purpose: 'Pause', lucide: ['pause'], material: ['pause'] },
  {
    id: 'previous',
    name: 'Previous',
    purpose: 'Previous',
    lucide: ['chevron-left', 'arrow-left'],
    material: ['chevron_left', 'arrow_back'],
  },
  {
    id: 'next',
    name: 'Next',
    purpose: 'Next',
    lucide: ['chevron-right', 'arrow-right'],
    material: ['chevron_right', 'arrow_forward'],
  },
  {
    id: 'new-window',
    name: 'New window',
    purpose: 'Opens in a new window',
    lucide: ['external-link', 'square-arrow-out-up-right'],
    material: ['open_in_new'],
  },
  {
    id: 'account',
    name: 'Account',
    purpose: 'Account',
    lucide: ['user', 'circle-user'],
    material: ['person', 'account_circle'],
  },
  { id: 'sign-in', name: 'Sign in', purpose: 'Sign in', lucide: ['log-in'], material: ['login'] },
  { id: 'sign-out', name: 'Sign out', purpose: 'Sign out', lucide: ['log-out'], material: ['logout'] },
  { id: 'settings', name: 'Settings', purpose: 'Settings', lucide: ['settings'], material: ['settings'] },
  { id: 'share', name: 'Share', purpose: 'Share', lucide: ['share-2', 'share'], material: ['share'] },
  { id: 'rss', name: 'RSS feed', purpose: 'RSS feed', lucide: ['rss'], material: ['rss_feed'] },
  { id: 'info', name: 'Information', purpose: 'More information', lucide: ['info'], material: ['info'] },
  { id: 'help', name: 'Help', purpose: 'Help', lucide: ['circle-help'], material: ['help'] },
  { id: 'warning', name: 'Warning', purpose: 'Warning', lucide: ['triangle-alert'], material: ['warning'] },
  {
    id: 'calendar',
    name: 'Calendar',
    purpose: 'Calendar',
    lucide: ['calendar'],
    material: ['calendar_month'],
  },
  { id: 'location', name: 'Location', purpose: 'Location', lucide: ['map-pin'], material: ['location_on'] },
  { id: 'language', name: 'Language', purpose: 'Choose language', lucide: ['globe'], material: ['language'] },
  { id: 'delete', name: 'Delete', purpose: 'Delete', lucide: ['trash-2'], material: ['delete'] },
  { id: 'edit', name: 'Edit', purpose: 'Edit', lucide: ['pencil'], material: ['edit'] },
  {
    id: 'captions',
    name: 'Captions',
    purpose: 'Captions',
    lucide: ['captions'],
    material: ['closed_caption'],
  },
  {
    id: 'sign-language',
    name: 'Sign language',
    purpose: 'Sign language',
    lucide: [],
    material: ['sign_language'],
  },
  { id: 'star', name: 'Star', purpose: 'Star', lucide: ['star'], material: ['star'] },
  // Weather: the alt says the weather shown (issue 19: "the expert says what weather it shows").
  { id: 'sunny', name: 'Sunny', purpose: 'Sunny', lucide: ['sun'], material: ['sunny'] },
  { id: 'cloudy', name: 'Cloudy', purpose: 'Cloudy', lucide: ['cloud'], material: ['cloud'] },
  {
    id: 'partly-cloudy',
    name: 'Partly cloudy',
    purpose: 'Partly cloudy',
    lucide: ['cloud-sun'],
    material: ['partly_cloudy_day'],
  },
  { id: 'rain', name: 'Rain', purpose: 'Rain', lucide: ['cloud-rain', 'cloud-drizzle'], material: ['rainy'] },
  { id: 'snow', name: 'Snow', purpose: 'Snow', lucide: ['cloud-snow'], material: ['weather_snowy'] },
  {
    id: 'thunderstorm',
    name: 'Thunderstorm',
    purpose: 'Thunderstorm',
    lucide: ['cloud-lightning'],
    material: ['thunderstorm'],
  },
  { id: 'fog', name: 'Fog', purpose: 'Fog', lucide: ['cloud-fog'], material: ['foggy'] },
  { id: 'wind', name: 'Windy', purpose: 'Windy', lucide: ['wind'], material: ['air'] },
];

const byId = new Map(pictogramConcepts.map((concept) => [concept.id, concept]));

export function pictogramConcept(id: string): PictogramConcept | undefined {
  return byId.get(id);
}
