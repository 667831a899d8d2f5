import classes from './LandingMedia.module.css';

/** Drawn stand-ins for the landing page's videos (no external video loads in this app). */

const ROWS = [
  ['trail running shoes', 'Trail Running', 'Exact'],
  ['waterproof running shoes', 'Waterproof', 'Phrase'],
  ['mens running shoes', 'Mens', 'Exact'],
  ['womens running shoes', 'Womens', 'Broad'],
  ['kids running shoes', 'Kids', 'Phrase'],
];

/** The poster in place of the intro video: a campaign table being built. */
export function IntroPoster() {
  return (
    <figure
      className={classes.poster}
      role="img"
      aria-label="Adloom generating keywords and ad groups from a running-shoes feed"
    >
      <div className={classes.window}>
        <div className={classes.chrome}>
          <span />
          <span />
          <span />
          <em>Campaign Builder</em>
        </div>
        <div className={classes.toolbar}>
          <span className={classes.chip}>Feed: running-shoes</span>
          <span className={classes.chip}>Template: Search · Shoes</span>
          <span className={classes.primary}>Generate Keywords or Output</span>
        </div>
        <table className={classes.table}>
          <thead>
            <tr>
              <th>Keyword</th>
              <th>Ad Group</th>
              <th>Match Type</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([keyword, group, match]) => (
              <tr key={keyword}>
                <td>{keyword}</td>
                <td>{group}</td>
                <td>{match}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className={classes.status}>
          <span className={classes.dot} /> 1,240 keywords · 412 ads · 100% valid
        </div>
      </div>
    </figure>
  );
}

/** A template connected to feed rows, producing ads. */
export function TemplateMock() {
  return (
    <figure
      className={classes.card}
      role="img"
      aria-label="A headline template with {mod} and {root} placeholders filled from three feed rows"
    >
      <div className={classes.label}>Headline template</div>
      <div className={classes.template}>
        Buy <b>{'{mod}'}</b> <b>{'{root}'}</b> Online
      </div>
      <div className={classes.arrow} aria-hidden>
        ↓ 3 feed rows
      </div>
      <ul className={classes.list}>
        <li>
          Buy Trail Running Shoes Online <span>30/30</span>
        </li>
        <li>
          Buy Mens Hiking Boots Online <span>28/30</span>
        </li>
        <li className={classes.fallback}>
          Shop Waterproof Boots <span>fallback</span>
        </li>
      </ul>
    </figure>
  );
}

/** A responsive search ad preview. */
export function AdPreviewMock() {
  return (
    <figure
      className={classes.card}
      role="img"
      aria-label="Preview of a responsive search ad for trail running shoes"
    >
      <div className={classes.label}>Preview · row 12 of 318</div>
      <div className={classes.ad}>
        <div className={classes.adUrl}>
          <b>Ad</b> · www.example.com/running/trail
        </div>
        <div className={classes.adHeadline}>Trail Running Shoes | Free Delivery | Shop Now</div>
        <div className={classes.adBody}>
          Grip, cushioning and waterproof uppers for every trail. Order today and try them for 30
          days.
        </div>
      </div>
      <div className={classes.controls} aria-hidden>
        <span>⟲ Shuffle</span>
        <span>◀</span>
        <span>❚❚</span>
        <span>▶</span>
      </div>
      <div className={classes.progress}>
        <span style={{ width: '62%' }} />
      </div>
    </figure>
  );
}

/** A table of ads ready to copy into the ad editor. */
export function ExportTableMock() {
  return (
    <figure
      className={classes.card}
      role="img"
      aria-label="A table of generated ads with a Copy button"
    >
      <div className={classes.exportHead}>
        <div className={classes.label}>Responsive Search Ads · 412 rows</div>
        <span className={classes.copy}>Copy</span>
      </div>
      <table className={classes.table}>
        <thead>
          <tr>
            <th>Ad Group</th>
            <th>Headline 1</th>
            <th>Path 1</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Trail Running</td>
            <td>Trail Running Shoes</td>
            <td>running</td>
          </tr>
          <tr>
            <td>Waterproof</td>
            <td>Waterproof Running Shoes</td>
            <td>running</td>
          </tr>
          <tr>
            <td>Mens</td>
            <td>Mens Running Shoes</td>
            <td>mens</td>
          </tr>
        </tbody>
      </table>
    </figure>
  );
}
