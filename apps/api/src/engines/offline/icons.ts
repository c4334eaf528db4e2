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

/**
 * One concept a line: id | name | purpose (blank when it is the name) | Lucide names | Material names
 * (names separated by spaces; `-` for none). A line starting with `#` says why.
 */
const conceptTable = `
  home          | Home          |                       | house                                   | home
  search        | Search        |                       | search                                  | search
  menu          | Menu          | Open menu             | menu                                    | menu
  cart          | Shopping cart |                       | shopping-cart                           | shopping_cart
  close         | Close         |                       | x                                       | close
  phone         | Telephone     | Call                  | phone                                   | call
  fax           | Fax           |                       | -                                       | fax
  mail          | Email         |                       | mail                                    | mail
  download      | Download      |                       | download                                | download
  print         | Print         |                       | printer                                 | print
  play          | Play          |                       | play                                    | play_arrow
  pause         | Pause         |                       | pause                                   | pause
  previous      | Previous      |                       | chevron-left arrow-left                 | chevron_left arrow_back
  next          | Next          |                       | chevron-right arrow-right               | chevron_right arrow_forward
  new-window    | New window    | Opens in a new window | external-link square-arrow-out-up-right | open_in_new
  account       | Account       |                       | user circle-user                        | person account_circle
  sign-in       | Sign in       |                       | log-in                                  | login
  sign-out      | Sign out      |                       | log-out                                 | logout
  settings      | Settings      |                       | settings                                | settings
  share         | Share         |                       | share-2 share                           | share
  rss           | RSS feed      |                       | rss                                     | rss_feed
  info          | Information   | More information      | info                                    | info
  help          | Help          |                       | circle-help                             | help
  warning       | Warning       |                       | triangle-alert                          | warning
  calendar      | Calendar      |                       | calendar                                | calendar_month
  location      | Location      |                       | map-pin                                 | location_on
  language      | Language      | Choose language       | globe                                   | language
  delete        | Delete        |                       | trash-2                                 | delete
  edit          | Edit          |                       | pencil                                  | edit
  captions      | Captions      |                       | captions                                | closed_caption
  sign-language | Sign language |                       | -                                       | sign_language
  star          | Star          |                       | star                                    | star
  # Weather: the alt says the weather shown ("the expert says what weather it shows").
  sunny         | Sunny         |                       | sun                                     | sunny
  cloudy        | Cloudy        |                       | cloud                                   | cloud
  partly-cloudy | Partly cloudy |                       | cloud-sun                               | partly_cloudy_day
  rain          | Rain          |                       | cloud-rain cloud-drizzle                | rainy
  snow          | Snow          |                       | cloud-snow                              | weather_snowy
  thunderstorm  | Thunderstorm  |                       | cloud-lightning                         | thunderstorm
  fog           | Fog           |                       | cloud-fog                               | foggy
  wind          | Windy         |                       | wind                                    | air
`;

const names = (cell: string) => (cell === '-' ? [] : cell.split(' '));

/** The table's rows as concepts, in its order. */
function conceptsOf(table: string): PictogramConcept[] {
  return table
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim().replace(/ +/g, ' '));
      if (cells.length !== 5) throw new Error(`A pictogram concept line needs five cells: ${line.trim()}`);
      const [id = '', name = '', purpose = '', lucide = '', material = ''] = cells;
      return { id, name, purpose: purpose || name, lucide: names(lucide), material: names(material) };
    });
}

export const pictogramConcepts: readonly PictogramConcept[] = conceptsOf(conceptTable);

const byId = new Map(pictogramConcepts.map((concept) => [concept.id, concept]));

export function pictogramConcept(id: string): PictogramConcept | undefined {
  return byId.get(id);
}
