import { describe, expect, it } from 'vitest';
import { AI_HELPER_TOOL, AI_SUGGESTIONS_MARKER, AiSuggestionsBodySchema } from '@adloom/contract';
import {
  buildSuggestionRequest,
  countSuggestion,
  findAiTools,
  hasAiHelper,
  presentSuggestions,
  readSuggestionLines,
  temperatureFor,
} from './ai-suggestions.ts';

const body = (fields: Record<string, unknown>) =>
  AiSuggestionsBodySchema.parse({ type: 'headlines', description: 'We sell shoes', ...fields });

describe('who gets the AI helper', () => {
  it('is users whose email ends with @domain, in any case, and nobody without a domain', () => {
    expect(hasAiHelper('Ann@Example.COM', 'example.com')).toBe(true);
    expect(hasAiHelper('ann@sub.example.com', 'example.com')).toBe(false);
    expect(hasAiHelper('ann@notexample.com', 'example.com')).toBe(false);
    expect(hasAiHelper('ann@example.com.evil.org', 'example.com')).toBe(false);
    expect(hasAiHelper('ann@example.com', undefined)).toBe(false);
    expect(findAiTools('ann@example.com', 'example.com')).toEqual([AI_HELPER_TOOL]);
    expect(findAiTools('bob@other.org', 'example.com')).toEqual([]);
  });
});

describe('buildSuggestionRequest', () => {
  it("asks for the type's count and limit, one a line, and sends the description and settings", () => {
    const request = buildSuggestionRequest(
      body({
        suggestionsToReturn: 5,
        creativity: 0.5,
        params: [
          { promptTitle: 'USPs', values: 'free shipping, 30-day returns' },
          { promptTitle: 'Promos', values: '  ' },
          { promptTitle: 'Brand values', values: 'handmade' },
        ],
      }),
    );
    const [system, user] = request.messages;
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('Write exactly 5 headlines, one per line');
    expect(system!.content).toContain('at most 30 characters');
    expect(system!.content).toContain('no "!"');
    expect(system!.content).not.toContain('Write them in');
    expect(user).toEqual({
      role: 'user',
      content: 'We sell shoes\n\nUSPs: free shipping, 30-day returns\nBrand values: handmade',
    });
    expect(request.temperature).toBe(0.7);
  });

  it('writes descriptions of 90 in the Language setting', () => {
    const request = buildSuggestionRequest(
      body({
        type: 'descriptions',
        suggestionsToReturn: 3,
        params: [{ promptTitle: 'Language', values: 'German' }],
      }),
    );
    const system = request.messages[0]!.content;
    expect(system).toContain('Write exactly 3 descriptions');
    expect(system).toContain('at most 90 characters');
    expect(system).toContain('at most one "!"');
    expect(system).toContain('Write them in German.');
    expect(request.messages[1]!.content).toBe('We sell shoes\n\nLanguage: German');
  });

  it('maps creativity 0..1 onto temperature 0..1.4', () => {
    expect([0, 0.7, 1].map(temperatureFor)).toEqual([0, 0.98, 1.4]);
  });
});

describe('reading the suggestions', () => {
  it('drops numbering, bullets, quotes and empty lines, and keeps numbers that belong', () => {
    expect(
      readSuggestionLines(
        '1. "Handmade Shoes"\n\n2) Free Returns\r\n- “Shoes That Last”\n• **Bold Pick**\n24-Hour Delivery\n2.5 Million Pairs Sold\n  ',
      ),
    ).toEqual([
      'Handmade Shoes',
      'Free Returns',
      'Shoes That Last',
      'Bold Pick',
      '24-Hour Delivery',
      '2.5 Million Pairs Sold',
    ]);
  });

  it('counts each as the editors do and marks what Google would refuse', () => {
    expect(countSuggestion('Handmade Leather Shoes', 'headlines')).toEqual({
      text: 'Handmade Leather Shoes',
      length: 22,
      limit: 30,
    });
    // Double-width characters count 2: 20 of them are 40.
    const wide = '手作りの革靴を今すぐお届けします送料無料';
    expect(countSuggestion(wide, 'headlines')).toMatchObject({
      length: 40,
      problem: 'Headline has 40 characters (max 30)',
    });
    expect(countSuggestion('Buy Shoes Now!', 'headlines').problem).toBe(
      'Headline has "!" (Google allows none in headlines)',
    );
    expect(countSuggestion('Buy shoes now!', 'descriptions').problem).toBeUndefined();
    const long = 'x'.repeat(95);
    expect(countSuggestion(`${long}!!`, 'descriptions')).toMatchObject({
      length: 97,
      limit: 90,
      problem: expect.stringMatching(
        /^Description has 97 characters \(max 90\); repeats punctuation/,
      ),
    });
  });

  it('answers the marker then one suggestion a line, every one counted, none dropped', () => {
    const answer = presentSuggestions(
      '1. Handmade Shoes\n2. This Headline Is Far Too Long For Google\n',
      57,
      'headlines',
    );
    expect(answer).toEqual({
      text: `${AI_SUGGESTIONS_MARKER}\nHandmade Shoes\nThis Headline Is Far Too Long For Google`,
      tokens: 57,
      suggestions: [
        { text: 'Handmade Shoes', length: 14, limit: 30 },
        {
          text: 'This Headline Is Far Too Long For Google',
          length: 40,
          limit: 30,
          problem: 'Headline has 40 characters (max 30)',
        },
      ],
    });
    expect(presentSuggestions(' \n- \n', 3, 'headlines')).toBeUndefined();
  });
});
