"""Array manipulation: shapes, joining and splitting, rearranging, adding and removing, padding."""
