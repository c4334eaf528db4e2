import { Link } from 'react-router';
import { AltExample, Code, List, Section } from './article-parts.tsx';
import { BlogPostLayout } from './blog-post-layout.tsx';
import { type BlogPost, blogPosts } from './posts.ts';

const [post1, post2, post3] = blogPosts as [BlogPost, BlogPost, BlogPost];

export function BlogPost1Page() {
  return (
    <BlogPostLayout post={post1}>
      <Section title="Why it matters">
        <p>
          A screen reader cannot see a photo. It reads the image&apos;s alt text instead, and if there is none
          it often reads the file name: &ldquo;IMG underscore 4821 dot jpg&rdquo;. WCAG 2.2 success criterion
          1.1.1, Non-text Content (level A), asks that every image that carries information has a text
          alternative that serves the same purpose. Alt text also shows when an image fails to load, and
          search engines read it.
        </p>
      </Section>
      <Section title="Describe the purpose, not just the pixels">
        <p>
          Ask what the image adds to <em>this</em> page. The same photo of a cyclist needs different alt text
          on a bike shop&apos;s product page (the bike&apos;s model and colour) than in a news story about a
          race (who won, and where).
        </p>
        <AltExample
          image="A photo on a café's menu page"
          weak="coffee"
          better="An espresso in a red cup on a matching saucer, with a silver spoon"
        />
      </Section>
      <Section title="Habits of good alt text">
        <List>
          <li>
            <strong>Be specific and brief.</strong> Usually one sentence. If an image needs a paragraph (a
            chart, a diagram), say what it shows in the alt text and put the details in the text around it.
          </li>
          <li>
            <strong>Skip &ldquo;image of&rdquo;.</strong> Screen readers already announce that it is an image.
            Say &ldquo;photo&rdquo; or &ldquo;illustration&rdquo; only when the medium matters.
          </li>
          <li>
            <strong>Include text that appears in the image,</strong> such as a sign, a logo&apos;s name or the
            words on a banner.
          </li>
          <li>
            <strong>For links and buttons, name the action.</strong> A magnifying-glass icon that submits a
            search gets <Code>alt=&quot;Search&quot;</Code>, not &ldquo;magnifying glass&rdquo;.
          </li>
          <li>
            <strong>Don&apos;t repeat the caption.</strong> If the text next to the image already says it all,
            the image may be decorative; see{' '}
            <Link to={post2.path} className="font-semibold text-indigo-700 underline underline-offset-4">
              our article on decorative images
            </Link>
            .
          </li>
        </List>
      </Section>
      <Section title="Review what a machine writes">
        <p>
          AI is good at noticing what is in a picture; you know why it is on the page. Use generated alt text
          as a strong first draft, then check names, numbers and context before you publish.
        </p>
      </Section>
    </BlogPostLayout>
  );
}

export function BlogPost2Page() {
  return (
    <BlogPostLayout post={post2}>
      <Section title="Not every image needs words">
        <p>
          A flourish under a heading, a background texture, a stock photo that only sets the mood, an icon
          placed right next to the word it illustrates: these add nothing a reader would miss. Describing them
          makes screen reader users sit through noise. WCAG 1.1.1 lets purely decorative images be implemented
          so that assistive technology ignores them.
        </p>
      </Section>
      <Section title="A quick decision path">
        <p>The W3C&apos;s alt decision tree boils down to a few questions, asked in order:</p>
        <List>
          <li>
            <strong>Does the image contain text?</strong> Then the alt text should contain that text (unless
            the same words are already right beside it).
          </li>
          <li>
            <strong>Is it inside a link or a button?</strong> Then the alt text must say where the link goes
            or what the button does. An image that is the only content of a link is never decorative.
          </li>
          <li>
            <strong>Does it add information?</strong> A photo, chart or diagram that tells the reader
            something needs a short description of that information.
          </li>
          <li>
            <strong>Does it repeat nearby text or only look nice?</strong> Then it is decorative.
          </li>
        </List>
      </Section>
      <Section title="How to mark an image as decorative">
        <List>
          <li>
            Use an empty alt attribute: <Code>alt=&quot;&quot;</Code>. Empty is not the same as missing:
            without the attribute many screen readers read the file name aloud.
          </li>
          <li>Put purely decorative pictures in CSS backgrounds where you can.</li>
          <li>
            Hide decorative inline SVG icons with <Code>aria-hidden=&quot;true&quot;</Code>.
          </li>
          <li>
            Don&apos;t write <Code>alt=&quot;decorative&quot;</Code> or <Code>alt=&quot;spacer&quot;</Code>:
            those words are read aloud too.
          </li>
        </List>
      </Section>
      <Section title="When in doubt">
        <p>
          Imagine reading the page aloud to someone over the phone. If you would mention the image, it needs
          alt text. If you would skip it without a second thought, leave the alt attribute empty.
        </p>
      </Section>
    </BlogPostLayout>
  );
}

export function BlogPost3Page() {
  return (
    <BlogPostLayout post={post3}>
      <Section title="Search engines read alt text too">
        <p>
          Search engines use alt text, together with the page&apos;s text and the image itself, to understand
          what an image shows and when to show it in image results. Google&apos;s own image guidelines
          recommend descriptive, useful alt text that uses keywords appropriately and in context. So the alt
          text that helps a blind shopper is also the alt text that helps your image rank.
        </p>
      </Section>
      <Section title="Write for the shopper, not the crawler">
        <p>
          On a product page the images often answer the questions the description does not: the exact colour,
          the texture, how it looks from the back. Say those things.
        </p>
        <AltExample
          image="The second photo of a leather backpack's gallery"
          weak="backpack leather backpack best backpack buy backpack cheap"
          better="Back of the tan leather backpack, showing two padded straps and a zipped laptop pocket"
        />
        <List>
          <li>Name the product type, colour, material and any feature the photo shows.</li>
          <li>Give every gallery image its own alt text: front view, side view, detail, in use.</li>
          <li>
            Use the words customers search for once, naturally. Keyword stuffing reads badly and search
            engines treat it as spam.
          </li>
          <li>Keep the price and calls to action in the page text, not in the alt text.</li>
        </List>
      </Section>
      <Section title="The rest of image SEO">
        <p>
          Other signals help too: a descriptive file name such as <Code>tan-leather-backpack-back.webp</Code>{' '}
          rather than <Code>IMG_4821.jpg</Code>, modern formats such as WebP or AVIF with explicit width and
          height so pages load fast without jumping, and images placed near the text they relate to.
        </p>
      </Section>
      <Section title="Alt text for a whole catalogue">
        <p>
          A shop with thousands of images cannot write every description by hand. Altwise scans a page for
          images that lack alt text, or takes a batch of uploads, and writes a specific description for each.
          One credit covers one image, and your library keeps every result ready to copy, edit or export.
        </p>
      </Section>
    </BlogPostLayout>
  );
}
