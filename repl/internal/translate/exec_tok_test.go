package translate

import "go.starlark.net/syntax"

func plusToken() syntax.Token { return syntax.PLUS }
