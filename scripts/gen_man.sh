#!/bin/sh
# Writes morphkit(1) in roff to stdout from the tool's own --help texts:
# `morphkit --help` gives NAME, SYNOPSIS and the command list, each
# `morphkit CMD --help` a section. usage: gen_man.sh TOOL VERSION [OUT]
tool=$1 version=$2
[ -n "$3" ] && exec > "$3"
esc() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/" ; }
echo ".TH MORPHKIT 1 \"\" \"morphkit $version\" \"User Commands\""
echo ".SH NAME"
echo "morphkit \\- blend-shape animation tools for unit folders and glTF files"
echo ".SH SYNOPSIS"
echo ".nf"
"$tool" --help | sed -n '/^usage:/,/^$/p' | sed 's/^usage: //; s/^       //' | esc
echo ".fi"
echo ".SH DESCRIPTION"
"$tool" --help | awk '/^commands:/{exit} seen && NF{print} /^$/{seen=1}' | esc
echo ".SH COMMANDS"
for cmd in $("$tool" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}'); do
    echo ".SS $cmd"
    echo ".nf"
    "$tool" "$cmd" --help | esc
    echo ".fi"
done
echo ".SH EXIT STATUS"
echo "0 success, 1 invalid input, 2 usage error."
echo ".SH FILES"
echo "Unit folders hold one OBJ file per frame, named <Animation>_<N>.obj, and an"
echo "optional animation.cfg; see the documentation installed with morphkit."
