/**
 * Checks the dashboard's acceptance asks of every page (docs/dashboard.md#tests), measured in the
 * page itself: nothing wider than the viewport, text readable against its background (WCAG AA
 * contrast) in the scheme the page is shown in, and every control reachable with Tab in reading
 * order with a visible focus.
 */
import type { Page } from 'playwright-core';
import type { TestBrowser } from './browser';

/** Elements (tag#id.class "text") whose box is wider than the viewport, making the page scroll sideways. */
export async function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) {
      return [];
    }
    // The innermost elements reaching past the edge, outside scrolling boxes: what makes the page wide.
    const scrolls = (element: Element): boolean => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') {
          return true;
        }
      }
      return false;
    };
    const beyond = (element: Element): boolean =>
      element.getBoundingClientRect().right > width + 1 && !scrolls(element);
    // A box within the window whose text spills out of it counts too.
    const spills = (element: HTMLElement): boolean =>
      !scrolls(element) &&
      getComputedStyle(element).overflowX === 'visible' &&
      element.getBoundingClientRect().left + element.scrollWidth > width + 1;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter(
        (element) =>
          (beyond(element) || spills(element)) &&
          ![...element.children].some((child) => beyond(child) || spills(child as HTMLElement)),
      )
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').slice(0, 40)}"`,
      );
    return [`page is ${document.documentElement.scrollWidth} px wide in ${width} px`, ...culprits.slice(0, 3)];
  });
}

/**
 * Headings wider than the window, or whose text spills out of their box (a long name that does
 * not wrap): even inside a box that scrolls sideways, a heading should fit the screen.
 */
export async function headingProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4')]
      .filter((h) => h.getBoundingClientRect().width > width + 1 || h.scrollWidth > h.clientWidth + 1)
      .map(
        (h) =>
          `${h.tagName.toLowerCase()} "${(h.textContent ?? '').slice(0, 40)}" is ${h.scrollWidth} px wide in ${width} px`,
      );
  });
}

/**
 * Text whose colour has less contrast with the background behind it than WCAG AA asks (4.5:1,
 * 3:1 for large or bold large text). SVG pictures (charts, job graphs) and disabled controls are
 * left out (WCAG exempts inactive controls).
 */
export async function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba | null => {
      const match = /rgba?\(([^)]+)\)/.exec(value);
      if (!match) {
        return null;
      }
      const parts = match[1]
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [parts[0], parts[1], parts[2], parts[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      const mix = (i: number) => (a === 0 ? 0 : (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a);
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: Rgba): number => {
      const channel = (c: number) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const background = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let current: Element | null = element; current; current = current.parentElement) {
        const colour = parse(getComputedStyle(current).backgroundColor);
        if (colour && colour[3] > 0) {
          layers.push(colour);
          if (colour[3] >= 1) {
            break;
          }
        }
      }
      const canvas = parse(getComputedStyle(document.documentElement).backgroundColor);
      let result: Rgba = canvas && canvas[3] > 0 ? canvas : [255, 255, 255, 1];
      for (const layer of layers.reverse()) {
        result = over(layer, result);
      }
      return result;
    };
    const problems: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === 3 && (node.textContent ?? '').trim() !== '',
      );
      if (!ownText || element.closest('svg') || element.closest('[disabled], [aria-disabled="true"]')) {
        continue;
      }
      const style = getComputedStyle(element);
      if (!element.checkVisibility({ visibilityProperty: true }) || element.closest('.sr-only')) {
        continue;
      }
      const colour = parse(style.color);
      if (!colour) {
        continue;
      }
      const back = background(element);
      const fore = over(colour, back);
      const [light, dark] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
      const ratio = (light + 0.05) / (dark + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      if (ratio < needed) {
        problems.push(
          `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').trim().slice(0, 30)}": ${ratio.toFixed(2)} < ${needed}`,
        );
      }
    }
    return problems;
  });
}

/**
 * Tab through the page from the top: the first stop must be "Skip to content", every stop must
 * show a focus outline, and every visible enabled control must be reached. Returns what is wrong.
 *
 * The Tab presses are real key presses (focus moves as it would for a person); what each one
 * focused is recorded in the page by a capturing `keydown` listener, which sees the element the
 * previous press focused, so the walk reads the page once per batch of presses rather than once
 * per press. A batch is as long as the page has visible controls (plus the wrap to the top), then
 * ten at a time until the walk is back at the top.
 */
export async function keyboardProblems(page: Page, maxStops = 400): Promise<string[]> {
  interface Stop {
    id: string;
    text: string;
    outlined: boolean;
  }
  // Start from the top whatever was clicked before: focusing the body moves the sequential
  // focus starting point there.
  const controls = await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
    window.scrollTo(0, 0);
    const focused = (): Stop | null => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) {
        return null;
      }
      if (!element.dataset.keyboardStop) {
        element.dataset.keyboardStop = String(Math.random());
      }
      const style = getComputedStyle(element);
      return {
        id: element.dataset.keyboardStop,
        text: (element.textContent ?? element.getAttribute('aria-label') ?? element.tagName).trim().slice(0, 30),
        outlined: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0,
      };
    };
    const walk = window as unknown as {
      sluiceTabStops: Array<Stop | null>;
      sluiceTabListener?: (event: KeyboardEvent) => void;
    };
    walk.sluiceTabStops = [];
    // Added anew each time: a document written over (document.open) loses the window's listeners.
    if (walk.sluiceTabListener !== undefined) {
      window.removeEventListener('keydown', walk.sluiceTabListener, true);
    }
    walk.sluiceTabListener = (event) => {
      if (event.key === 'Tab') {
        walk.sluiceTabStops.push(focused());
      }
    };
    window.addEventListener('keydown', walk.sluiceTabListener, true);
    (window as unknown as { sluiceFocused: () => Stop | null }).sluiceFocused = focused;
    return document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length;
  });
  const problems: string[] = [];
  const reached = new Set<string>();
  let pressed = 0;
  let walking = true;
  while (walking && pressed < maxStops) {
    const batch = Math.min(maxStops - pressed, pressed === 0 ? controls + 2 : 10);
    for (let press = 0; press < batch; press += 1) {
      await page.keyboard.press('Tab');
    }
    // The state after each press of the walk so far: a keydown saw the one before it, and the last is read now.
    const after = await page.evaluate(() => {
      const walk = window as unknown as { sluiceTabStops: Array<Stop | null>; sluiceFocused: () => Stop | null };
      return [...walk.sluiceTabStops.slice(1), walk.sluiceFocused()];
    });
    for (let stop = pressed; stop < pressed + batch; stop += 1) {
      const focused = after[stop];
      // Past the last control focus leaves the page, whose next keydown may go unseen (undefined).
      if (focused === undefined || focused === null || reached.has(focused.id)) {
        walking = false; // back at the top
        break;
      }
      if (stop === 0 && focused.text !== 'Skip to content') {
        problems.push(`first stop is "${focused.text}", not "Skip to content"`);
      }
      if (!focused.outlined) {
        problems.push(`no visible focus on "${focused.text}"`);
      }
      reached.add(focused.id);
    }
    pressed += batch;
  }
  const missed = await page.evaluate(
    (ids: string[]) => {
      const seen = new Set(ids);
      const controls = document.querySelectorAll<HTMLElement>(
        'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])',
      );
      return (
        [...controls]
          // checkVisibility: not hidden by display, visibility or content-visibility (a closed <details>).
          .filter((element) => element.checkVisibility({ visibilityProperty: true }))
          .filter((element) => !seen.has(element.dataset.keyboardStop ?? ''))
          .map(
            (element) =>
              `not reachable with Tab: ${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}"`,
          )
      );
    },
    [...reached],
  );
  return [...problems, ...missed];
}

/** A window the pages are checked in: width, colour scheme, and whether Tab is walked too. */
export type View = readonly [width: number, scheme: 'light' | 'dark', keyboard: boolean];

/**
 * Every check above on each page in each view; each problem says where it is. A page is checked
 * once its `main h1` shows and nothing in `main` says "Loading". The views of one width share a
 * tab and one load of each page: the first view's scheme is emulated before the load and each
 * further scheme is switched to on the loaded page (the colour schemes are CSS only, a
 * `prefers-color-scheme` media query of web/src/styles.css with no transition, so the page's
 * styles are those a load in that scheme gives); before each view the focus goes back to the top.
 */
export async function pageProblems(browser: TestBrowser, pages: string[], views: readonly View[]): Promise<string[]> {
  const wait = { timeout: 60_000 };
  const problems: string[] = [];
  for (const width of new Set(views.map(([viewWidth]) => viewWidth))) {
    const schemes = views.filter(([viewWidth]) => viewWidth === width);
    const tab = await browser.open(width);
    for (const at of pages) {
      await tab.emulateMedia({ colorScheme: schemes[0][1] });
      await tab.goto(at);
      await tab.locator('main h1').first().waitFor(wait);
      await tab.waitForFunction(
        () => !document.querySelector('main')?.textContent?.includes('Loading'),
        undefined,
        wait,
      );
      for (const [, scheme, keyboard] of schemes) {
        await tab.emulateMedia({ colorScheme: scheme });
        await tab.evaluate(() => {
          (document.activeElement as HTMLElement | null)?.blur();
          window.scrollTo(0, 0);
        });
        const found = [
          ...(await overflowProblems(tab)),
          ...(await headingProblems(tab)),
          ...(await contrastProblems(tab)),
          ...(keyboard ? await keyboardProblems(tab) : []),
        ];
        problems.push(...found.map((problem) => `${at} at ${width} px, ${scheme}: ${problem}`));
      }
    }
    await tab.close();
  }
  return problems;
}
