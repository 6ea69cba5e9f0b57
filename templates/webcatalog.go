package templates

import (
	"fmt"
	"path"
	"strings"

	"orrery/engine/lang"
)

// WebCatalog is the messages of the embedded lang/*.po files, for what is
// worded in the reader's language but is not a mail: the web pages
// (pbem/web, templates/web), whose own words are in lang/<code>-web.po.
// It is the catalog New builds, without parsing the mail templates.
func WebCatalog() (*lang.Catalog, error) {
	c := lang.NewCatalog()
	pos, err := poFiles("")
	if err != nil {
		return nil, err
	}
	for _, name := range pos {
		tag, ok := lang.Parse(strings.TrimSuffix(path.Base(name), ".po"))
		if !ok || tag == lang.English {
			return nil, fmt.Errorf("template %s: not a language this server can write", name)
		}
		b, err := embedded.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if err := c.AddPO(tag, string(b)); err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
	}
	c.Freeze()
	return c, nil
}
