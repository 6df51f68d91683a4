"""Parse account requests and format their answers."""

from __future__ import annotations

from rest_framework import serializers


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True)
    password = serializers.CharField(
        max_length=256, trim_whitespace=False, style={"input_type": "password"}
    )


class AccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class BlockSerializer(serializers.Serializer):
    username = serializers.CharField(source="blocked.username", help_text="The blocked player.")
    created = serializers.DateTimeField()
