/**
 * Brands named from where a link goes (ADR 063): a link to linkedin.com is "LinkedIn", not
 * "Linkedin" from its host name. simple-icons' `source` addresses point at where a mark was drawn
 * from (HTML5's is w3.org), not at the brand's site, so they cannot map domains; this short table
 * covers the brands sites link to from icons most: social networks, video and code hosting,
 * messaging, app stores and payment. Spelled as the brands spell themselves (simple-icons titles).
 */
const brandDomains: ReadonlyArray<[string, string]> = [
  ['linkedin.com', 'LinkedIn'],
  ['facebook.com', 'Facebook'],
  ['fb.com', 'Facebook'],
  ['fb.me', 'Facebook'],
  ['instagram.com', 'Instagram'],
  ['x.com', 'X'],
  ['twitter.com', 'X'],
  ['youtube.com', 'YouTube'],
  ['youtu.be', 'YouTube'],
  ['tiktok.com', 'TikTok'],
  ['pinterest.com', 'Pinterest'],
  ['reddit.com', 'Reddit'],
  ['threads.net', 'Threads'],
  ['threads.com', 'Threads'],
  ['bsky.app', 'Bluesky'],
  ['mastodon.social', 'Mastodon'],
  ['tumblr.com', 'Tumblr'],
  ['snapchat.com', 'Snapchat'],
  ['flickr.com', 'Flickr'],
  ['vimeo.com', 'Vimeo'],
  ['twitch.tv', 'Twitch'],
  ['discord.com', 'Discord'],
  ['discord.gg', 'Discord'],
  ['whatsapp.com', 'WhatsApp'],
  ['wa.me', 'WhatsApp'],
  ['t.me', 'Telegram'],
  ['telegram.org', 'Telegram'],
  ['signal.org', 'Signal'],
  ['slack.com', 'Slack'],
  ['github.com', 'GitHub'],
  ['gitlab.com', 'GitLab'],
  ['bitbucket.org', 'Bitbucket'],
  ['stackoverflow.com', 'Stack Overflow'],
  ['medium.com', 'Medium'],
  ['substack.com', 'Substack'],
  ['patreon.com', 'Patreon'],
  ['ko-fi.com', 'Ko-fi'],
  ['buymeacoffee.com', 'Buy Me a Coffee'],
  ['dribbble.com', 'Dribbble'],
  ['behance.net', 'Behance'],
  ['spotify.com', 'Spotify'],
  ['soundcloud.com', 'SoundCloud'],
  ['apps.apple.com', 'App Store'],
  ['itunes.apple.com', 'App Store'],
  ['podcasts.apple.com', 'Apple Podcasts'],
  ['apple.com', 'Apple'],
  ['play.google.com', 'Google Play'],
  ['maps.google.com', 'Google Maps'],
  ['goo.gl', 'Google Maps'],
  ['google.com', 'Google'],
  ['paypal.com', 'PayPal'],
  ['paypal.me', 'PayPal'],
  ['stripe.com', 'Stripe'],
  ['venmo.com', 'Venmo'],
  ['etsy.com', 'Etsy'],
  ['ebay.com', 'eBay'],
  ['amazon.com', 'Amazon'],
  ['tripadvisor.com', 'Tripadvisor'],
  ['yelp.com', 'Yelp'],
  ['xing.com', 'XING'],
  ['vk.com', 'VK'],
  ['weibo.com', 'Sina Weibo'],
  ['line.me', 'LINE'],
  ['wechat.com', 'WeChat'],
  ['meetup.com', 'Meetup'],
  ['eventbrite.com', 'Eventbrite'],
];

const byDomain = new Map(brandDomains);
/** Brands with a site per country ("amazon.co.uk", "google.de"); other brands' ".io" or ".me" hosts are someone else's. */
const countrySites = new Set([
  'amazon',
  'ebay',
  'google',
  'linkedin',
  'facebook',
  'pinterest',
  'paypal',
  'etsy',
  'tripadvisor',
  'yelp',
]);
const countryDomain = /^([a-z0-9-]+)\.(?:co\.|com\.)?([a-z]{2})$/;
const notCountries = new Set(['io', 'me', 'tv', 'ai', 'gg', 'so', 'ly', 'to', 'sh', 'fm', 'cc', 'co']);

/**
 * The brand a host belongs to: the host itself or its parent domains ("uk.linkedin.com",
 * "www.youtube.com"). Country domains of the same brand ("amazon.co.uk") count too.
 */
export function brandForHost(hostname: string): string | undefined {
  const labels = hostname.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  for (let start = 0; start < labels.length - 1; start++) {
    const domain = labels.slice(start).join('.');
    const known = byDomain.get(domain);
    if (known) return known;
    const country = countryDomain.exec(domain);
    if (country?.[1] && country[2] && countrySites.has(country[1]) && !notCountries.has(country[2]))
      return byDomain.get(`${country[1]}.com`);
  }
  return undefined;
}
