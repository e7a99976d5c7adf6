"""The browser client: static pages (HTML, CSS, ES modules, no build step) and the
content the pages draw from (maps, tile shapes, sites), as JSON made from the package's
own data files. The server mounts both; nothing here touches the rules' state."""
